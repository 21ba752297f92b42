// The question the bot asks before the first step when the log cannot tell what decides the plan:
// which node was running, or whose GPU printed CUDA wording (AMD cards under ZLUDA print it too).
// When each question applies, its choices and the fact each answer stands for are data here; the
// kb's own rules (the judge) say whether an answer could change the diagnosis at all.
import type { Judge } from '../classify/classify.ts';
import { stageOfNode, type CompiledStages } from '../classify/facts/stage.ts';
import type { Facts, Stage } from '../classify/facts/types.ts';
import type { Choice, Question, QUESTION_CHOICES } from '../records/case.ts';

export type { Choice, Question };

interface ChoiceRule {
  choice: Choice;
  /** Button code (two letters, see render.ts's button ids). */
  code: string;
  facts: Partial<Pick<Facts, 'gpuVendor' | 'stage'>>;
  /** Stages a typed node name may map to that this choice stands for. */
  stages?: Stage[];
  /** Words that mean this choice when typed instead of pressed. */
  words: string[];
}

/** A question's choices: the ids the records name (records/case.ts), each with its rule, in the order shown. */
type RulesFor<Ids extends readonly Choice[]> = { readonly [K in keyof Ids]: ChoiceRule & { choice: Ids[K] } };
type ChoiceRules<Q extends Question> = RulesFor<(typeof QUESTION_CHOICES)[Q]>;

interface QuestionRule<Q extends Question> {
  /** True when the log leaves the answer open. */
  open: (f: Facts) => boolean;
  choices: ChoiceRules<Q>;
}

/** Backends that show the platform even when the log names no GPU. */
const PLATFORM_BACKENDS: ReadonlySet<string> = new Set(['rocm', 'zluda', 'directml', 'mps', 'xpu']);

const DONT_KNOW = ["don't know", 'dont know', 'don’t know', 'idk', 'not sure', 'no idea', 'unknown', '不知道', '不清楚', '不确定', '不確定', 'わからない', '分からない', 'わかりません', '分かりません', '모르겠', '모름'];

export const QUESTIONS: Readonly<{ [Q in Question]: QuestionRule<Q> }> = {
  vendor: {
    // Only for the bare tails that show nothing else: a log long enough to show the failing node
    // nearly always shows the platform too, and asking every NVIDIA user would tire them.
    open: (f) => f.oom === 'cuda' && f.gpuVendor === undefined && !PLATFORM_BACKENDS.has(f.backend ?? '') && f.stage === undefined && f.node === undefined,
    choices: [
      { choice: 'nvidia', code: 'vn', facts: { gpuVendor: 'nvidia' }, words: ['nvidia', 'geforce', 'rtx', 'gtx', '英伟达', '輝達', 'n卡'] },
      { choice: 'amd', code: 'va', facts: { gpuVendor: 'amd' }, words: ['amd', 'radeon', 'rocm', 'zluda', 'a卡'] },
      { choice: 'unknown', code: 'vu', facts: {}, words: DONT_KNOW },
    ],
  },
  stage: {
    open: (f) => f.oom === 'cuda' && f.stage === undefined && f.node === undefined,
    choices: [
      { choice: 'sampling', code: 'ss', facts: { stage: 'sampling' }, stages: ['sampling'], words: ['sampler', 'sampling', '采样', '採樣', 'サンプラー', 'サンプリング', '샘플러', '샘플링'] },
      { choice: 'vae', code: 'sv', facts: { stage: 'vae_decode' }, stages: ['vae_decode', 'vae_encode'], words: ['vae', '解码', '编码', '解碼', '編碼', 'デコード', 'エンコード', '디코딩', '디코드', '인코딩'] },
      { choice: 'loader', code: 'sl', facts: { stage: 'model_load' }, stages: ['model_load', 'text_encoder'], words: ['loader', 'checkpoint', 'unet', 'clip', '加载', '載入', 'ローダー', '読み込み', '로더', '로딩'] },
      { choice: 'other', code: 'so', facts: { stage: 'other' }, stages: ['upscale', 'detector', 'training', 'other'], words: ['upscaler', 'upscale', 'detailer', 'other', '放大', '其他', 'アップスケール', 'その他', '업스케일', '기타'] },
      { choice: 'unknown', code: 'su', facts: {}, words: DONT_KNOW },
    ],
  },
};

/** The vendor first: "AMD" settles the entry whatever the stage, so its answer may spare the second question. */
const ORDER: Question[] = ['vendor', 'stage'];

/** What the user answered: a choice, whether they typed it, and the node's name when they typed one. */
export interface Clarification {
  question: Question;
  choice: Choice;
  typed?: true;
  node?: { name: string; stage: Stage };
}

const ruleOf = (c: Pick<Clarification, 'question' | 'choice'>) => QUESTIONS[c.question].choices.find((x) => x.choice === c.choice);

/** The facts with the user's answer in them, its evidence marked as theirs (line -1: no line of the paste). */
export function withAnswer(facts: Facts, c: Clarification): Facts {
  const learned: Partial<Facts> = c.node ? { node: c.node.name, stage: c.node.stage } : (ruleOf(c)?.facts ?? {});
  const evidence = Object.fromEntries(Object.keys(learned).map((k) => [k, { line: -1, text: c.node?.name ?? c.choice, source: 'user answer', strength: 1 }]));
  return { ...facts, ...learned, evidence: { ...facts.evidence, ...evidence } };
}

/**
 * The question to ask before the first step, if any: one the log leaves open, not answered yet,
 * and whose answers could lead to a different kb entry than the facts lead to now (after "AMD" no
 * stage can change the AMD entry, so that question is never put).
 */
export function nextQuestion(facts: Facts, answered: readonly Question[], judge: Judge): Question | undefined {
  const now = judge(facts).entry.id;
  return ORDER.find(
    (q) => !answered.includes(q) && QUESTIONS[q].open(facts) && QUESTIONS[q].choices.some((c) => judge(withAnswer(facts, { question: q, choice: c.choice })).entry.id !== now),
  );
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Latin words must stand alone ("amd" is not in "command"); Chinese, Japanese and Korean ones are found inside others. */
const mentions = (text: string, word: string) =>
  /^[\x20-\x7e’]+$/.test(word) ? new RegExp(`(?:^|[^a-z0-9])${escape(word)}(?:$|[^a-z0-9])`, 'i').test(text) : text.toLowerCase().includes(word);

/** A node's name as typed: words starting with a letter, such as "KSampler (Advanced)" or "VAE Decode". */
const NODE_TYPED = /^[A-Za-z][\w.+-]{0,60}(?: \(?[A-Za-z][\w.+-]{0,30}\)?){0,4}$/;

/**
 * What typed text answers to an open question: a node's name the kb knows (for the stage), else a
 * choice's words; undefined when it says neither, so chat is never taken for an answer.
 */
export function readTyped(question: Question, text: string, stages: CompiledStages): Clarification | undefined {
  const typed = text.trim();
  if (!typed || typed.length > 120) return undefined;
  if (question === 'stage' && NODE_TYPED.test(typed)) {
    const stage = stageOfNode(typed, stages);
    const choice = stage && QUESTIONS.stage.choices.find((c) => c.stages?.includes(stage));
    if (stage && choice) return { question, choice: choice.choice, typed: true, node: { name: typed, stage } };
  }
  const hit = QUESTIONS[question].choices.find((c) => c.words.some((w) => mentions(typed, w)));
  return hit && { question, choice: hit.choice, typed: true };
}
