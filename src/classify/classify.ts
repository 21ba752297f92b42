// Paste in, diagnosis out: normalize, read the facts, then let every kb entry's rule vote.
// The most specific entry that holds wins (ties go to the higher priority), never the first match.
import type { Kb } from '../kb/load.ts';
import type { Entry, FactName } from '../kb/schema.ts';
import { tester } from './conditions.ts';
import { compileReader, extractFacts, type Evidence, type Facts } from './facts/index.ts';
import { normalize } from './normalize.ts';

export interface Candidate {
  entry: string;
  category: Entry['category'];
  /** Fact tests of the entry that held (true match) or could not be decided (possible match). */
  specificity: number;
  match: 'holds' | 'possible';
}

export interface EvidenceLine {
  fact: string;
  /** 1-based line in the normalized paste. */
  line: number;
  text: string;
  source: string;
}

export interface Diagnosis {
  entry: Entry;
  category: Entry['category'];
  confidence: number;
  facts: Facts;
  evidence: EvidenceLine[];
  runnersUp: Candidate[];
  truncated: boolean;
  kbVersion: string;
}

export type Classifier = (text: string) => Diagnosis;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** An entry and the fact tests of it that held. */
interface Scored {
  entry: Entry;
  held: FactName[];
}

/** Rules over facts: which kb entry a set of facts makes true, however the facts were learned. */
export type Judge = (facts: Facts, opts?: { truncated?: boolean }) => Diagnosis;

/**
 * The rule half of the classifier, on its own so that facts learned outside the paste (a user's
 * answer to "which node was running?") re-decide the entry exactly as a log showing them would.
 */
export function createJudge(kb: Kb): Judge {
  const fallback = [...kb.entries].filter((e) => e.category === 'not_oom').sort((a, b) => a.priority - b.priority)[0];
  if (!fallback) throw new Error('kb has no not_oom entry to fall back on');
  const tests = kb.entries.map((entry) => ({ entry, test: tester(entry.match) }));

  return (facts, opts = {}) => {
    const truncated = opts.truncated ?? false;
    // Most entries are false for a paste: only those that hold, or come near, are kept.
    const holds: Scored[] = [];
    const possible: Scored[] = [];
    for (const { entry, test } of tests) {
      const held: FactName[] = [];
      const truth = test(facts, held);
      if (truth === true) holds.push({ entry, held });
      else if (truth === undefined && held.length > 0) possible.push({ entry, held });
    }
    holds.sort((a, b) => b.held.length - a.held.length || b.entry.priority - a.entry.priority);
    const winner = holds[0];
    const entry = winner?.entry ?? fallback;
    const held = winner?.held ?? [];

    const evidence: EvidenceLine[] = [];
    const seenLines = new Set<number>();
    for (const fact of ['exception', ...held, 'node', 'gpuName', 'vramGb'] as const) {
      const ev: Evidence | undefined = facts.evidence[fact as keyof Facts['evidence']];
      if (!ev || seenLines.has(ev.line) || !ev.text) continue;
      seenLines.add(ev.line);
      evidence.push({ fact, line: ev.line + 1, text: ev.text.trim(), source: ev.source });
    }

    const strengths = held.map((f) => facts.evidence[f]?.strength ?? 0.9);
    let confidence = winner ? Math.min(1, ...strengths) : 0.4;
    // A not-OOM answer with no failure line to rest on is a guess, unless the kb knows the
    // wording it rests on (an argparse refusal prints no exception, yet says exactly what failed).
    const knownWording = entry.priority >= 0 && held.includes('signatures');
    if (entry.category === 'not_oom' && !facts.primarySignature && !facts.oom && !knownWording) confidence = Math.min(confidence, 0.5);
    if (truncated) confidence *= 0.95;

    const runnersUp: Candidate[] = [
      ...holds.slice(1).map((s) => ({ entry: s.entry.id, category: s.entry.category, specificity: s.held.length, match: 'holds' as const })),
      ...possible
        .sort((a, b) => b.held.length - a.held.length)
        .map((s) => ({ entry: s.entry.id, category: s.entry.category, specificity: s.held.length, match: 'possible' as const })),
    ]
      .filter((c) => c.category !== entry.category)
      .filter((c, i, all) => all.findIndex((x) => x.category === c.category) === i)
      .slice(0, 3);

    return {
      entry,
      category: entry.category,
      confidence: round2(confidence),
      facts,
      evidence,
      runnersUp,
      truncated,
      kbVersion: kb.version,
    };
  };
}

export function createClassifier(kb: Kb): Classifier {
  const reader = compileReader(kb);
  const judge = createJudge(kb);
  return (text: string): Diagnosis => {
    const normalized = normalize(text);
    return judge(extractFacts(normalized, reader), { truncated: normalized.truncated });
  };
}
