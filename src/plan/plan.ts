// Tailors an entry's ordered steps to one user's facts: drops what cannot help them (a flag they
// already use, --lowvram under dynamic VRAM, a flag their build does not have), picks the variant
// of each step that fits their OS, vendor and card, and renders its launch change as their own
// launch line.
import type { Kb } from '../kb/load.ts';
import type { Entry, Flag, LaunchChange, Since, Step, Text } from '../kb/schema.ts';
import { compareVersions, evaluate } from '../classify/conditions.ts';
import type { Facts } from '../classify/facts/types.ts';
import { renderCommand, renderLaunch, type Snippet } from './launch.ts';
import { inEvery } from '../i18n/messages.ts';
import { format, monthText, P } from './strings.ts';

export type { Snippet } from './launch.ts';

export interface PlannedStep {
  id: string;
  title: Text;
  why: Text;
  text: Text;
  /** How to apply it: the user's launch line changed, a Desktop setting, a command. */
  snippets: Snippet[];
  /** Which builds have the flags it names, when the log shows no version; what a refused flag needs. */
  notes: Text[];
  verify: Text;
  effort: Step['effort'];
  sources: Step['sources'];
}

export interface SkippedStep {
  id: string;
  title: Text;
  reason: 'already-applied' | 'does-not-apply' | 'needs-newer-build';
}

export interface Plan {
  steps: PlannedStep[];
  skipped: SkippedStep[];
  /** The steps a signal in the paste put first (kb/leads.yaml), as planned: they stay first whatever order is learned. */
  leads: string[];
}

/**
 * Steps planned up front: people stop after two or three, so the likeliest few for this setup are
 * the plan and the rest stay reachable as more ideas, offered after them.
 */
export const UP_FRONT = 5;

type Variant = Step['do'][number];
type PlanKb = Pick<Kb, 'steps' | 'flags' | 'launch' | 'leads' | 'models'>;

/** The leads whose signals the paste shows, in the kb's order. */
const holding = (leads: Kb['leads'], facts: Facts) => leads.filter((l) => evaluate(l.when, facts).truth === true);

const PLACEHOLDER = /\{(\w{1,40})\}/g;
const factValue = (facts: Facts, name: string): string | undefined => {
  const v = (facts as unknown as Record<string, unknown>)[name];
  return typeof v === 'number' || typeof v === 'string' ? String(v) : Array.isArray(v) && v.length ? v.join(', ') : undefined;
};
const fillable = (text: Text, facts: Facts) => [...`${text.en} ${text.zh}`.matchAll(PLACEHOLDER)].every((m) => factValue(facts, m[1]!) !== undefined);
/** Step texts may quote the user's own numbers: "{workflowWidth}×{workflowHeight}". */
const fill = (text: string, facts: Facts) => text.replace(PLACEHOLDER, (m, name: string) => factValue(facts, name) ?? m);

/** A flag as written in text or on a command line. */
export const FLAG_MENTION = /(?<![\w-])--[a-z0-9][a-z0-9_-]*[a-z0-9]/g;

const textsOf = (t: Text) => [t.en, t.zh];
/** Everything a user reads of a step besides its variants. */
export const stepTexts = (s: Step) => [...textsOf(s.title), ...textsOf(s.why), ...textsOf(s.verify)];
/** Everything a user reads or copies of one variant. */
export const variantTexts = (v: Variant) => [...textsOf(v.text), ...(v.verify ? textsOf(v.verify) : []), ...(v.launch?.add ?? []), v.portable ?? '', v.manual ?? ''];

/** The catalogued flags with a first build that these texts name. */
export function datedFlags(texts: string[], flags: ReadonlyMap<string, Flag>): (Flag & { since: Since })[] {
  const named = new Set(texts.flatMap((t) => t.match(FLAG_MENTION) ?? []));
  return [...named].map((f) => flags.get(f)).filter((f): f is Flag & { since: Since } => !!f?.since);
}

/**
 * Whether the user's build has a flag: true or false when the log shows its version and the flag's
 * first version is known, undefined when either is missing.
 */
export function buildHas(flag: { since: Since }, facts: Facts): boolean | undefined {
  if (!facts.comfyuiVersion || !flag.since.version) return undefined;
  return compareVersions(facts.comfyuiVersion, flag.since.version) >= 0;
}

/** "`--vram-headroom` needs ComfyUI 0.25.0 (June 2026) or later. If ComfyUI says `unrecognized arguments`…" */
function needsNote(flag: Flag & { since: Since }): Text {
  const month = monthText(flag.since.month);
  const first = flag.since.version
    ? format(P.needs.version, { flag: `\`${flag.flag}\``, version: flag.since.version, month })
    : format(P.needs.month, { flag: `\`${flag.flag}\``, month });
  return { en: `${first.en} ${P.needs.older.en}`, zh: `${first.zh}${P.needs.older.zh}`, ja: `${first.ja}${P.needs.older.ja}`, ko: `${first.ko} ${P.needs.older.ko}`, 'zh-Hant': `${first['zh-Hant']}${P.needs.older['zh-Hant']}` };
}

/** What the catalogue knows of a flag argparse refused: which builds have it, or that none do. */
function refusedNote(name: string, facts: Facts, flags: ReadonlyMap<string, Flag>): Text {
  const flag = flags.get(name);
  const values = { flag: `\`${name}\`` };
  if (!flag) return format(P.refused.unknown, values);
  if (flag.status === 'never') return format(P.refused.never, values);
  if (flag.status === 'removed') return format(P.refused.removed, { ...values, month: flag.until ? monthText(flag.until.month) : '' });
  if (!flag.since) return format(P.refused.present, values);
  const yours = facts.comfyuiVersion ? format(P.refused.yours, { version: facts.comfyuiVersion }) : inEvery(() => '');
  const month = monthText(flag.since.month);
  return flag.since.version
    ? format(P.refused.newerVersion, { ...values, version: flag.since.version, month, yours })
    : format(P.refused.newerMonth, { ...values, month, yours });
}

/** A change that takes off "the flags argparse refused" names them. */
const withFacts = (change: LaunchChange, facts: Facts): LaunchChange => ({
  ...change,
  remove: change.remove.flatMap((f) => (f === '{rejectedFlags}' ? (facts.rejectedFlags ?? []) : [f])),
});

/** The variant of a step for these facts: the first whose condition holds, else the default (the last one without a condition). */
export function variantFor(step: Step, facts: Facts): Variant | undefined {
  const fitting = step.do.filter((v) => fillable(v.text, facts));
  return fitting.find((v) => v.when && evaluate(v.when, facts).truth === true) ?? fitting.filter((v) => !v.when).at(-1);
}

/**
 * The launch flags (with their values) that steps the user carried out put on their line: a step
 * answered "still failing" was applied, one skipped or not applicable was not.
 */
export function flagsApplied(tried: readonly { step: string; answer: string; reason?: string }[], facts: Facts, kb: Pick<Kb, 'steps'>): string[] {
  return tried
    .filter((t) => t.answer === 'failed' && t.reason !== 'could_not_apply')
    .flatMap((t) => {
      const step = kb.steps.get(t.step);
      return (step && variantFor(step, facts)?.launch?.add) ?? [];
    });
}

/**
 * The OS the failure itself proves when the log has no OS line: MPS runs on macOS only, so a Mac's
 * steps and launch forms follow, never another platform's (kb-audit-2 N2-N4: an MPS OOM without an
 * OS line was told to run nvidia-smi and edit a .bat).
 */
export function withProvenOs(facts: Facts): Facts {
  if (facts.os) return facts;
  return facts.backend === 'mps' || facts.oom === 'mps' || facts.gpuVendor === 'apple' ? { ...facts, os: 'macos' } : facts;
}

/**
 * `order`: the entry's steps in the order learned from recorded outcomes (src/learn), when the
 * case gets one; the kb's order otherwise. Either way the steps the paste's signals lead with come
 * first, and every step is tailored and skipped as here. `kept`: flags earlier steps of the case
 * put on the user's line, which every later line shown keeps.
 */
export function planSteps(entry: Entry, read: Facts, kb: PlanKb, order: readonly string[] = entry.steps, kept: readonly string[] = []): Plan {
  const plan: Plan = { steps: [], skipped: [], leads: [] };
  const facts = withProvenOs(read);
  const held = holding(kb.leads, facts);
  // Their steps first, each once, in the order of the rules that hold.
  const leading = [...new Set(held.flatMap((l) => l.steps))];
  // A known issue says what it is beside the first of its steps that is planned.
  const told = new Set<Kb['leads'][number]>();
  for (const id of [...leading, ...order.filter((s) => !leading.includes(s))]) {
    const step = kb.steps.get(id);
    if (!step) continue; // the loader guarantees references; a hot-reloaded kb may not
    if (step.skipIf && evaluate(step.skipIf, facts).truth === true) {
      plan.skipped.push({ id, title: step.title, reason: 'already-applied' });
      continue;
    }
    if (step.onlyIf && evaluate(step.onlyIf, facts).truth === false) {
      plan.skipped.push({ id, title: step.title, reason: 'does-not-apply' });
      continue;
    }
    const variant = variantFor(step, facts);
    // A flag the user's build lacks rules the step out; one their build may lack is said plainly.
    const flags = variant ? datedFlags([...stepTexts(step), ...variantTexts(variant)], kb.flags) : [];
    if (!variant || flags.some((f) => buildHas(f, facts) === false)) {
      plan.skipped.push({ id, title: step.title, reason: variant ? 'needs-newer-build' : 'does-not-apply' });
      continue;
    }
    const issues = held.filter((l) => l.note && !told.has(l) && l.steps.includes(id));
    issues.forEach((l) => told.add(l));
    const notes = [
      ...issues.map((l) => l.note!),
      ...flags.filter((f) => buildHas(f, facts) === undefined).map(needsNote),
      ...(step.explainFlags ? (facts[step.explainFlags] ?? []).map((f) => refusedNote(f, facts, kb.flags)) : []),
      ...(step.quotesModel ? kb.models.filter((m) => m.id === facts.modelFamily).map((m) => m.sizes) : []),
    ];
    if (leading.includes(id)) plan.leads.push(id);
    plan.steps.push({
      id,
      title: step.title,
      why: step.why,
      text: inEvery((lang) => fill(variant.text[lang], facts)),
      snippets: [...(variant.launch ? renderLaunch(withFacts(variant.launch, facts), facts, kb, kept) : []), ...renderCommand(variant, facts)],
      notes,
      verify: variant.verify ?? step.verify,
      effort: step.effort,
      sources: step.sources,
    });
  }
  return plan;
}
