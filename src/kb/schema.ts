// The shape of everything in kb/. The files are data written by people; this schema is what lets
// a typo fail at load with its file, field and reason instead of surfacing as a wrong answer.
import { z } from 'zod';

/**
 * YAML folds a long text's lines with spaces, right for English and Korean and wrong for Chinese:
 * no space goes after full-width punctuation, before an opening one, or between two Han
 * characters. Spaces around Latin words and code stay. Japanese keeps the spaces it is written
 * with (Windows' own "ページング ファイル" has one), so its texts are not folded.
 */
export const joinChinese = (text: string) =>
  text
    .replace(/([，。：；！？）」”』、》])[ \t\n]+(?=\S)/gu, '$1')
    .replace(/[ \t\n]+(?=[（「“『《，。：；！？）」”』、》])/gu, '')
    .replace(/(\p{sc=Han})[ \t\n]+(?=\p{sc=Han})/gu, '$1');

const said = z.string().trim().min(1);
/** Every user-facing string exists in English, Simplified and Traditional Chinese, Japanese and Korean (i18n/messages.ts's LANGS). */
export const Text = z.strictObject({
  en: said,
  zh: said.transform(joinChinese),
  'zh-Hant': said.transform(joinChinese),
  ja: said,
  ko: said,
});
export type Text = z.infer<typeof Text>;

/** The facts a rule may reason over (see src/classify/facts.ts for how each is read). */
export const FACT_NAMES = [
  'oom', // which allocator ran out, from the exception wording: cuda | hip | mps | directml | xpu | ram
  'signatures', // ids of kb/signatures.yaml entries seen in the paste (array)
  'primarySignature', // the signature on the failing exception line, when there is one
  'stage', // sampling | vae_decode | vae_encode | model_load | text_encoder | upscale | detector | training | other
  'node', // the failing node's class name
  'backend', // cuda | rocm | zluda | mps | directml | xpu | cpu
  'gpuVendor', // nvidia | amd | intel | apple
  'gpuName',
  'gpuBeforeTuring', // an NVIDIA card older than RTX 20 (GTX 10, Pascal and before): CUDA 13 builds have no kernels for it
  'os', // windows | linux | macos
  'app', // comfyui | a1111 | forge | fooocus | invokeai | sdnext | wan2gp | easydiffusion | swarmui
  'install', // portable | desktop | manual | docker | launcher (a Chinese one-click bundle's launcher: 秋叶/绘世)
  'flags', // ComfyUI launch flags seen (array)
  'attention', // sage | flash | xformers | pytorch | split | quad
  'dynamicVram', // true | false
  'vramGb',
  'ramGb',
  'requestedGb',
  'totalGb',
  'freeGb',
  'allocatedGb',
  'reservedUnallocatedGb',
  'freeShare', // freeGb / totalGb as the allocator reported them
  'requestFitsFree', // true when the failed request was smaller than the memory reported free
  'comfyuiVersion',
  'torchVersion',
  'launchArgs', // the arguments after main.py on the launch line the paste shows (array)
  'rejectedFlags', // flags argparse refused: "unrecognized arguments", "not allowed with argument" (array)
  'videoWorkflow', // true when the paste shows a video model or frames
  'recoveredVaeTiling', // ComfyUI's own "retrying with tiled VAE decoding" warning was printed
  'modelFamily', // the kb/models.yaml family of the diffusion model ComfyUI loaded ("Requested to load Flux2")
  // From an attached workflow JSON (UI or API format):
  'workflowWidth',
  'workflowHeight',
  'workflowBatch',
  'workflowFrames',
  'workflowModels', // model files the workflow loads (array)
  'workflowTiledVae', // true when it decodes with VAE Decode (Tiled), false when with plain VAE Decode
  // Derived, for step texts that quote a smaller job to try first ({suggestedWidth} etc.):
  'suggestedWidth',
  'suggestedHeight',
  'suggestedFrames',
] as const;
export const FactName = z.enum(FACT_NAMES);
export type FactName = z.infer<typeof FactName>;

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

/** A test on one fact. A leaf uses exactly one operator. */
const Leaf = z
  .strictObject({
    fact: FactName,
    is: Scalar.optional(),
    in: z.array(Scalar).min(1).optional(),
    has: z.string().optional(), // array facts: contains this value
    hasAny: z.array(z.string()).min(1).optional(),
    lt: z.number().optional(),
    gte: z.number().optional(),
    versionLt: z.string().regex(/^\d+(\.\d+){0,2}$/).optional(),
    versionGte: z.string().regex(/^\d+(\.\d+){0,2}$/).optional(),
    known: z.boolean().optional(), // the fact was (true) or was not (false) found in the paste
  })
  .refine((c) => ['is', 'in', 'has', 'hasAny', 'lt', 'gte', 'versionLt', 'versionGte', 'known'].filter((k) => k in c).length === 1, {
    message: 'a fact test needs exactly one of is, in, has, hasAny, lt, gte, versionLt, versionGte, known',
  });

export type Condition =
  | z.infer<typeof Leaf>
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition };

export const Condition: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    Leaf,
    z.strictObject({ all: z.array(Condition).min(1) }),
    z.strictObject({ any: z.array(Condition).min(1) }),
    z.strictObject({ not: Condition }),
  ]),
);

export const Source = z.strictObject({
  title: z.string().min(1),
  url: z.string().url(),
});

/**
 * A family of diffusion models and what its weights take (kb/models.yaml): a step that names the
 * model's size (`quotesModel`) quotes `sizes` when the log shows ComfyUI loading one of `loads`.
 */
export const ModelFamily = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  /** ComfyUI's model classes, as its log names them: "Requested to load Flux2". */
  loads: z.array(z.string().regex(/^\w+$/)).min(1),
  sizes: Text,
  sources: z.array(Source).min(1),
});
export type ModelFamily = z.infer<typeof ModelFamily>;

const FLAG = /^--[a-z0-9_-]+$/;

/**
 * A change to the command ComfyUI starts with. The planner renders it as the user's own launch
 * line (their .bat, `python main.py`, or a Desktop setting), so kb texts never spell one out.
 */
export const LaunchChange = z.strictObject({
  /** Tokens to put at the end of the line: flags, each followed by its value if it takes one. */
  add: z.array(z.string().min(1)).default([]),
  /** Flags to take off the line, with their values; `{rejectedFlags}` stands for the flags argparse refused. */
  remove: z.array(z.union([z.string().regex(FLAG), z.literal('{rejectedFlags}')])).default([]),
  /** An environment variable to set before ComfyUI starts. */
  env: z.strictObject({ name: z.string().regex(/^[A-Z][A-Z0-9_]*$/), value: z.string().min(1) }).optional(),
});
export type LaunchChange = z.infer<typeof LaunchChange>;

/** One way to carry out a step; the first variant whose `when` holds is shown. */
export const Variant = z.strictObject({
  when: Condition.optional(),
  text: Text,
  launch: LaunchChange.optional(),
  /** A command that is not the launch line (pip, curl, an update script), for the Windows portable build. */
  portable: z.string().optional(),
  /** The same command for a manual, Desktop or Docker install (any OS). */
  manual: z.string().optional(),
  /** Where those commands run, when not in the install's own folder (a custom node's folder): said in their labels, the Chinese after “在 ”. */
  runIn: Text.optional(),
  /** How to check, where the tool to look with differs by platform (Task Manager, `free -h`). */
  verify: Text.optional(),
});

export const Step = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  title: Text,
  why: Text,
  do: z.array(Variant).min(1).refine((v) => v.slice(0, -1).every((x) => x.when), {
    message: 'every variant but the last needs a `when` (the last is the default)',
  }),
  verify: Text,
  effort: z.enum(['low', 'medium', 'high']),
  /** Skip the step when this is certainly true of the user's setup (e.g. the flag is already set). */
  skipIf: Condition.optional(),
  /** Offer the step only when this may be true (an unknown fact does not rule it out). */
  onlyIf: Condition.optional(),
  /** A new log for which this holds shows the step did not take effect (recorded as "couldn't apply it"). */
  noEffectIf: Condition.optional(),
  /** For each flag in this fact, say what kb/flags.yaml knows of it (which builds have it, or that none do). */
  explainFlags: z.literal('rejectedFlags').optional(),
  /** Quote what the model the log shows takes (kb/models.yaml), beside the step. */
  quotesModel: z.literal(true).optional(),
  sources: z.array(Source).min(1),
  /** For maintainers: why the step says what it says, answers to expert objections. Never shown to users. */
  notes: z.string().optional(),
});
export type Step = z.infer<typeof Step>;

export const Entry = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  /** The corpus category this entry answers with. */
  category: z.enum([
    'oom_gpu_sampling',
    'oom_gpu_vae',
    'oom_gpu_model_load',
    'oom_gpu_other',
    'oom_cpu_ram',
    'oom_amd_hip',
    'oom_mps',
    'oom_directml',
    'not_oom',
  ]),
  title: Text,
  cause: Text,
  /** When the entry applies. Its specificity is the number of fact tests in it. */
  match: Condition,
  /** Breaks ties between entries of equal specificity; higher wins. */
  priority: z.number().int().default(0),
  steps: z.array(z.string()).default([]),
  /** Said instead of the title and cause where the paste leaves them unproven (the first that holds): what the bot knows, no more. */
  variants: z.array(z.strictObject({ when: Condition, title: Text, cause: Text })).optional(),
  sources: z.array(Source).min(1),
  /** For maintainers, never shown to users. */
  notes: z.string().optional(),
});
export type Entry = z.infer<typeof Entry>;

/**
 * What a paste shows that points at one kind of fix before the entry's usual order: "it worked
 * before the update", a tiny job failing with --lowvram already on, a 2 MB request on a full card.
 * Where `when` holds, `steps` come first in the plan, in this order, added where the entry lacks
 * them; each still passes its own skipIf and onlyIf.
 */
export const Lead = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  when: Condition,
  steps: z.array(z.string()).min(1),
  sources: z.array(Source).min(1),
  /** For maintainers: what the rule rests on. Never shown to users. */
  notes: z.string().optional(),
});
/** A lead as plans use it: a known issue's also says what it is, beside the first of its steps planned. */
export type Lead = z.infer<typeof Lead> & { note?: Text };

const VERSION = /^\d+(\.\d+){0,2}$/;
const MONTH = /^\d{4}-\d{2}$/;

/**
 * A regression or incompatibility with a known fix (kb/known-issues.yaml): in which versions of
 * which component, what it looks like, and what fixes it. It is matched from the versions and the
 * signs the paste shows, and acts as a lead: its steps come first, with its text beside them.
 */
export const KnownIssue = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9-]+$/),
    component: z.enum(['comfyui', 'custom-node', 'pytorch', 'driver', 'rocm', 'comfy-aimdo', 'app']),
    /** The custom node pack or package, where the component is not enough. */
    package: z.string().optional(),
    /** The versions that have it, as the log shows them: from the first affected, before the first fixed. */
    affected: z
      .strictObject({ fact: z.enum(['comfyuiVersion', 'torchVersion']), from: z.string().regex(VERSION).optional(), before: z.string().regex(VERSION).optional() })
      .refine((a) => a.from || a.before, 'give from, before or both')
      .optional(),
    /** When it was open, for readers: a log carries no date. */
    dates: z.strictObject({ from: z.string().regex(MONTH), to: z.string().regex(MONTH).optional() }).optional(),
    /** What else the paste must show (its error's signature, the backend). */
    when: Condition.optional(),
    fix: z.strictObject({ kind: z.enum(['update', 'rollback', 'flag']), to: z.string().optional(), flag: z.string().regex(FLAG).optional() }),
    steps: z.array(z.string()).min(1),
    /** What the user reads: the issue, the versions, the fix. */
    text: Text,
    sources: z.array(Source).min(1),
    notes: z.string().optional(),
  })
  .refine((k) => k.affected || k.when, 'a row the paste cannot match: give affected, when or both');
export type KnownIssue = z.infer<typeof KnownIssue>;

/** A known issue as the lead it acts as: the versions it names and what else it needs, all holding. */
export function knownIssueLead(k: KnownIssue): Lead {
  const range: Condition[] = k.affected
    ? [
        ...(k.affected.from ? [{ fact: k.affected.fact, versionGte: k.affected.from }] : []),
        ...(k.affected.before ? [{ fact: k.affected.fact, versionLt: k.affected.before }] : []),
      ]
    : [];
  return { id: `known-issue-${k.id}`, when: { all: [...range, ...(k.when ? [k.when] : [])] }, steps: k.steps, sources: k.sources, note: k.text };
}

/** What a typed reply at a step means, as the buttons would say it (kb/replies.yaml). */
export const REPLY_INTENTS = ['stop', 'different', 'failing', 'could_not_apply', 'worked', 'skip', 'trying', 'question', 'thanks', 'wrong'] as const;
export type ReplyIntent = (typeof REPLY_INTENTS)[number];

/** Words that carry one intent, tried in the file's order; the first rule that matches decides. */
export const ReplyRule = z.strictObject({
  intent: z.enum(REPLY_INTENTS),
  /** Case-insensitive regular expressions over the whole reply (RE2: see src/classify/patterns.ts). */
  patterns: z.array(z.string().min(2)).min(1),
});
export type ReplyRule = z.infer<typeof ReplyRule>;

/** Error wordings: the "information" patterns, kept apart from the entries that reason over them. */
export const Signature = z.strictObject({
  id: z.string().regex(/^[a-z0-9_]+$/),
  /** Which memory ran out, absent for non-memory errors; `gpu` for wordings that name no platform (the paste's platform decides). */
  oom: z.enum(['cuda', 'hip', 'mps', 'directml', 'xpu', 'ram', 'gpu']).optional(),
  /** Case-insensitive regular expressions, one line at a time; see src/classify/patterns.ts for the allowed subset. */
  patterns: z.array(z.string().min(3)).min(1),
  /** A warning or a recovery message, not a failure: never the primary error. */
  benign: z.boolean().default(false),
  /** Memory words said as not happening ("without an OOM", "to avoid OOM"): no memory wording on its lines counts. */
  denies: z.boolean().default(false),
  note: z.string().optional(),
});
export type Signature = z.infer<typeof Signature>;

/** How a node name, a stack frame or a "Requested to load" class points at a stage. */
export const StageHints = z.strictObject({
  /** Class names of the libraries around ComfyUI that read like node names (PyTorch's DataLoader): never a node. */
  notNodes: z.array(z.string()).default([]),
  stages: z.array(
    z.strictObject({
      stage: z.string(),
      /** Node class names: exact, or with * as a wildcard (case-insensitive). */
      nodes: z.array(z.string()).default([]),
      /** Substrings of a stack frame, `path inside its package", line in function | code line`, matched at a word start. */
      frames: z.array(z.string()).default([]),
      /** Model classes named by "Requested to load X" (exact, or with *). */
      models: z.array(z.string()).default([]),
      /** Phrases that say what failed: in the log around the error, or in the user's own sentences (case-insensitive). */
      phrases: z.array(z.string().min(2)).default([]),
      /** Log lines (or progress-bar labels) that start this stage; the last one before the error tells what was running. */
      events: z.array(z.string().min(3)).default([]),
    }),
  ),
});
export type StageHints = z.infer<typeof StageHints>;

/** The first ComfyUI build with a flag: its version where known, always its month, and where that was read. */
export const Since = z.strictObject({
  version: z.string().regex(/^\d+\.\d+\.\d+$/).optional(),
  month: z.string().regex(/^20\d\d-(0[1-9]|1[0-2])$/),
  source: Source,
});
export type Since = z.infer<typeof Since>;

/** Where ComfyUI Desktop sets a flag (Settings → Server-Config), when it has a setting for it. */
const DesktopSetting = z.strictObject({
  /** The setting's path as the app shows it. */
  path: Text,
  /** The value to choose; a flag's own argument (e.g. the GB of --reserve-vram) when absent. */
  value: z.string().optional(),
  /** The value that takes the flag off again. */
  reset: z.string().optional(),
});

/** ComfyUI's launch flags as the facts sheet lists them, with the builds that have them. */
export const Flag = z
  .strictObject({
    flag: z.string().regex(FLAG),
    /** in: present in the Oct-2025 snapshot (0.3.64) and in ≈0.35; newer: only newer builds; removed: gone in newer builds; never: not a ComfyUI flag */
    status: z.enum(['in', 'newer', 'removed', 'never']),
    /** The first build that has it: required for `newer`, and for an `in` flag younger than some builds still in use. */
    since: Since.optional(),
    /** For `removed`: the first build known to lack it. */
    until: Since.optional(),
    /** Where a flag outside the facts sheet's flag tables was read (a launch script, the docs). */
    source: Source.optional(),
    /** How many values follow it on a command line. */
    arg: z.enum(['none', 'one', 'optional', 'many']).default('none'),
    /** argparse's mutually exclusive group: adding one flag of a group replaces the others. */
    group: z.string().regex(/^[a-z-]+$/).optional(),
    desktop: DesktopSetting.optional(),
    help: z.string().optional(),
    notes: z.string().optional(),
  })
  .refine((f) => f.status !== 'newer' || f.since, { message: 'a newer-only flag needs `since`: its first version or month, and the source', path: ['since'] });
export type Flag = z.infer<typeof Flag>;

/** The line ComfyUI is started with in one kind of install, as its own file ships it. */
const Script = z.strictObject({
  /** The file users edit, when there is one. */
  file: z.string().min(1).optional(),
  /** The launch line, with {args} where the flags go. */
  line: z.string().includes('{args}'),
  /** The flags the file ships with (one newer than the log's build, or with no build shown, is left out); absent where installs differ. */
  args: z.array(z.string().regex(FLAG)).optional(),
  source: Source,
});
export type Script = z.infer<typeof Script>;

export const Launch = z.strictObject({
  portable: z.strictObject({ nvidia: Script, amd: Script, intel: Script }),
  zluda: Script,
  /** A container: the flags go on its start command or in the image's arguments variable. */
  docker: Script,
  /** A one-click bundle's launcher (秋叶/绘世), which writes ComfyUI's command line from its own settings. */
  launcher: z.strictObject({ source: Source }),
  manual: Script,
  desktop: z.strictObject({
    /** Where the legacy app's Server-Config settings are. */
    settings: Text,
    /** The legacy app's settings file and key that hold any other launch flag. */
    file: z.string().min(1),
    key: z.string().min(1),
    /** Where the newer Comfy Desktop takes any flag, and any environment variable, per installation. */
    startupArgs: Text,
    environment: Text,
    sources: z.array(Source).min(1),
  }),
});
export type Launch = z.infer<typeof Launch>;
