// Which fixes really work: moderator statistics over the case store. Confirmed resolutions (the
// user said it worked) and assumed ones (a later log was no longer an OOM) are always reported apart.
// The store's queries (src/store/stats.ts) give the rows; the figures are shaped here.
import type { LearnedOrder } from '../learn/index.ts';
import { QUESTION_CHOICES, type Choice, type Question } from '../records/case.ts';
import type { Sql } from '../store/sql.ts';
import {
  answerRows,
  archivedFixes,
  caseGroups,
  casesAsked,
  doubtedEntries,
  fixTenths,
  funnelRows,
  recentMisdiagnoses,
  stepCounts,
  unrecognizedByWeek,
  unrecognizedExample,
  weekStart,
  type FunnelRow,
  type Scope,
} from '../store/stats.ts';

export interface EntryStats {
  entry: string;
  category: string;
  cases: number;
  resolvedConfirmed: number;
  resolvedAssumed: number;
  escalated: number;
  abandoned: number;
  cancelled: number;
  open: number;
}

export interface StepStats {
  step: string;
  /** Cases where the step was offered. */
  reached: number;
  /** Cases where the user reported trying it (worked or still failing). */
  tried: number;
  resolvedConfirmed: number;
  resolvedAssumed: number;
  /** Cases where a new log showed a different memory failure after this step: progress, not a fix. */
  movedOn: number;
}

/** How often the log could not tell and the bot asked before the first step, and what people answered. */
export interface QuestionStats {
  question: Question;
  /** Cases it was put to. */
  asked: number;
  /** Answers per choice; `unknown` is "I don't know". */
  answers: Partial<Record<Choice, number>>;
  /** Answers written (a node's name, "AMD") rather than pressed. */
  typed: number;
  /** Still open, or made moot by a new log, a stop or idleness. */
  unanswered: number;
}

/** One step of one entry: how many cases were offered it, tried it, and were fixed by it. */
export type FunnelStep = Omit<FunnelRow, 'entry'>;

export type Outcome = 'resolvedConfirmed' | 'resolvedAssumed' | 'escalated' | 'abandoned' | 'cancelled' | 'open';
export const OUTCOMES: Outcome[] = ['resolvedConfirmed', 'resolvedAssumed', 'escalated', 'abandoned', 'cancelled', 'open'];

/** Cases created in one week (Monday, UTC, as YYYY-MM-DD), by how they ended. */
export type WeekStats = { week: string } & Record<Outcome, number>;

export interface Stats {
  since: number | null;
  /** When they were computed: the end of their period. */
  until: number;
  /** What was counted: every case, or one platform's, or one server's (a Discord server, a Slack workspace). */
  scope: Scope;
  cases: number;
  shares: { resolvedConfirmed: number; resolvedAssumed: number; escalated: number; abandoned: number; cancelled: number; open: number };
  entries: EntryStats[];
  steps: StepStats[];
  /** Cases whose user said the diagnosis was not their problem, by the entry they doubted (most first). */
  misdiagnosed: {
    cases: number;
    share: number;
    byEntry: { entry: string; cases: number }[];
    /** The newest such cases still kept, for a moderator to relabel: what was doubted, and what the case went on as. */
    recent: { caseId: string; doubted: string; now: string }[];
  };
  /** Over confirmed resolutions only. */
  medianStepsToResolution: number | null;
  medianMinutesToResolution: number | null;
  /** Errors the kb did not recognize, most frequent first, grouped by fingerprint, with their cases per week and an example from the scope's own cases. */
  unrecognized: { fingerprint: string; cases: number; entry: string; example: string | null; weeks: { week: string; cases: number }[] }[];
  questions: { casesAsked: number; byQuestion: QuestionStats[] };
  /** Per entry, each step's funnel: offered, tried, fixed (entries by cases, steps by offers). */
  funnel: { entry: string; steps: FunnelStep[] }[];
  weeks: WeekStats[];
  /** The step order learned per entry, with its evidence, when the caller knows the kb (see src/stats/report.ts). */
  learned?: LearnedOrder[];
}

export interface StatsOptions {
  sinceMs?: number;
  now?: number;
  scope?: Scope;
}

/** Parses "30d", "12h", "90m" into milliseconds. */
export function parseSince(s: string): number {
  const m = /^(\d{1,6})\s{0,1}([wdhm])$/i.exec(s.trim());
  if (!m) throw new Error(`--since takes a number and w, d, h or m (e.g. 2w, 30d), not "${s}"`);
  return Number(m[1]) * { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2]!.toLowerCase() as 'w' | 'd' | 'h' | 'm'];
}

const share = (n: number, total: number) => (total ? Math.round((n / total) * 1000) / 1000 : 0);

/** The median of a distribution given as (value, count) rows. */
function median(rows: { value: number; n: number }[]): number | null {
  const total = rows.reduce((t, r) => t + r.n, 0);
  if (!total) return null;
  const sorted = [...rows].sort((a, b) => a.value - b.value);
  const at = (rank: number) => {
    let seen = 0;
    return sorted.find((r) => (seen += r.n) > rank)!.value;
  };
  return (at(Math.floor((total - 1) / 2)) + at(Math.floor(total / 2))) / 2;
}

export async function computeStats(store: Sql, opts: StatsOptions = {}): Promise<Stats> {
  const until = opts.now ?? Date.now();
  const from = opts.sinceMs !== undefined ? until - opts.sinceMs : 0;
  const scope = opts.scope ?? {};
  const grouped = await caseGroups(store, from, scope);
  const outcomeOf = (r: { status: string; resolution: string | null }): Outcome =>
    r.status === 'resolved' ? (r.resolution === 'confirmed' ? 'resolvedConfirmed' : 'resolvedAssumed') : (r.status as Outcome);
  const entryRows = new Map<string, EntryStats>();
  const weekRows = new Map<number, WeekStats>();
  for (const r of grouped) {
    const key = `${r.entry}\u0000${r.category}`;
    const e = entryRows.get(key) ?? ({ entry: r.entry, category: r.category, cases: 0, ...Object.fromEntries(OUTCOMES.map((o) => [o, 0])) } as EntryStats);
    const w = weekRows.get(r.week) ?? ({ week: weekStart(r.week), ...Object.fromEntries(OUTCOMES.map((o) => [o, 0])) } as WeekStats);
    const outcome = outcomeOf(r);
    e.cases += r.n;
    e[outcome] += r.n;
    w[outcome] += r.n;
    entryRows.set(key, e);
    weekRows.set(r.week, w);
  }
  const entries = [...entryRows.values()].sort((a, b) => b.cases - a.cases || a.entry.localeCompare(b.entry));

  const total = entries.reduce((n, e) => n + e.cases, 0);
  const sum = (k: keyof EntryStats) => entries.reduce((n, e) => n + (e[k] as number), 0);

  const steps = new Map<string, StepStats>();
  const row = (step: string) => steps.get(step) ?? steps.set(step, { step, reached: 0, tried: 0, resolvedConfirmed: 0, resolvedAssumed: 0, movedOn: 0 }).get(step)!;
  for (const r of await stepCounts(store, from, scope)) {
    const s = row(r.step);
    s.reached += r.reached;
    s.tried += r.tried;
    s.movedOn += r.movedOn;
  }
  const stepsToFix = await archivedFixes(store, 'steps', from, scope);
  for (const r of grouped) {
    if (r.status !== 'resolved') continue;
    const confirmed = outcomeOf(r) === 'resolvedConfirmed';
    if (r.step !== null) row(r.step)[confirmed ? 'resolvedConfirmed' : 'resolvedAssumed'] += r.n;
    if (confirmed && r.steps !== null) stepsToFix.push({ value: r.steps, n: r.n });
  }
  const medianSteps = median(stepsToFix);
  const tenths = await fixTenths(store, from, scope);
  const medianTenths = median([...tenths, ...(await archivedFixes(store, 'tenths', from, scope))]);

  const unknown = new Map<string, { fingerprint: string; cases: number; entry: string; weeks: { week: string; cases: number }[] }>();
  for (const r of (await unrecognizedByWeek(store, from, scope)).sort((a, b) => a.week - b.week)) {
    const u = unknown.get(r.fingerprint) ?? { fingerprint: r.fingerprint, cases: 0, entry: r.entry, weeks: [] };
    u.cases += r.n;
    u.entry = u.entry < r.entry ? u.entry : r.entry;
    u.weeks.push({ week: weekStart(r.week), cases: r.n });
    unknown.set(r.fingerprint, u);
  }
  const unrecognized = await Promise.all(
    [...unknown.values()]
      .sort((a, b) => b.cases - a.cases || a.fingerprint.localeCompare(b.fingerprint))
      .slice(0, 10)
      .map(async (u) => ({ ...u, example: await unrecognizedExample(store, u.fingerprint, scope) })),
  );

  const doubtedBy = new Map<string, number>();
  for (const r of await doubtedEntries(store, from, scope)) doubtedBy.set(r.entry, (doubtedBy.get(r.entry) ?? 0) + Number(r.n));
  const misdiagnosed = [...doubtedBy].reduce((n, [, c]) => n + c, 0);
  const recent = await recentMisdiagnoses(store, from, scope);

  return {
    since: opts.sinceMs !== undefined ? from : null,
    until,
    scope,
    cases: total,
    shares: {
      resolvedConfirmed: share(sum('resolvedConfirmed'), total),
      resolvedAssumed: share(sum('resolvedAssumed'), total),
      escalated: share(sum('escalated'), total),
      abandoned: share(sum('abandoned'), total),
      cancelled: share(sum('cancelled'), total),
      open: share(sum('open'), total),
    },
    entries,
    misdiagnosed: {
      cases: misdiagnosed,
      share: share(misdiagnosed, total),
      byEntry: [...doubtedBy].map(([entry, cases]) => ({ entry, cases })).sort((a, b) => b.cases - a.cases || a.entry.localeCompare(b.entry)),
      recent,
    },
    steps: [...steps.values()].sort((a, b) => b.resolvedConfirmed - a.resolvedConfirmed || b.reached - a.reached || a.step.localeCompare(b.step)),
    medianStepsToResolution: medianSteps,
    medianMinutesToResolution: medianTenths === null ? null : Math.round(medianTenths) / 10,
    unrecognized,
    questions: await questionStats(store, from, scope),
    funnel: await funnel(store, from, scope, entries),
    weeks: [...weekRows.entries()].sort((a, b) => a[0] - b[0]).map(([, w]) => w),
  };
}

/** Each entry's steps; entries in the order of `entries`, steps by how often they were offered. */
async function funnel(store: Sql, from: number, scope: Scope, entries: EntryStats[]): Promise<Stats['funnel']> {
  const byEntry = new Map<string, FunnelStep[]>();
  for (const { entry, ...r } of await funnelRows(store, from, scope)) byEntry.set(entry, [...(byEntry.get(entry) ?? []), r]);
  const rank = new Map(entries.map((e, i) => [e.entry, i]));
  return [...byEntry.entries()]
    .sort((a, b) => (rank.get(a[0]) ?? Infinity) - (rank.get(b[0]) ?? Infinity) || a[0].localeCompare(b[0]))
    .map(([entry, steps]) => ({ entry, steps: steps.sort((a, b) => b.offered - a.offered || a.step.localeCompare(b.step)) }));
}

async function questionStats(store: Sql, from: number, scope: Scope): Promise<Stats['questions']> {
  const rows = await answerRows(store, from, scope);
  const asked = await casesAsked(store, from, scope);
  const byQuestion = (Object.keys(QUESTION_CHOICES) as Question[]).map((question): QuestionStats => {
    const mine = rows.filter((r) => r.question === question);
    const count = (choice: Choice | null) => mine.filter((r) => r.choice === choice).reduce((n, r) => n + r.n, 0);
    return {
      question,
      asked: mine.reduce((n, r) => n + r.n, 0),
      // Every choice is listed, zeros included, so a moderator sees the whole spread of answers.
      answers: Object.fromEntries(QUESTION_CHOICES[question].map((choice) => [choice, count(choice)])),
      typed: mine.reduce((n, r) => n + r.typed, 0),
      unanswered: count(null),
    };
  });
  return { casesAsked: asked, byQuestion };
}
