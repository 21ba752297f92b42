// Reads Prometheus' text format (what /metrics serves) into samples, to check figures by name and labels.
export type Samples = Map<string, number>;

const key = (name: string, labels: Record<string, string>) =>
  `${name}{${Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k]}"`)
    .join(',')}}`;

export function parseMetrics(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    samples.set(key(m[1]!, labels), Number(m[3]));
  }
  return samples;
}

/** A sample's value; 0 when absent (a counter no one has counted yet is not shown). */
export const sample = (s: Samples, name: string, labels: Record<string, string> = {}) => s.get(key(name, labels)) ?? 0;

/** Every sample of a name, whatever its labels. */
export const named = (s: Samples, name: string) => [...s].filter(([k]) => k.startsWith(`${name}{`));
