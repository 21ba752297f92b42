// A Dockerfile and an env file read as Docker reads them, for the container checks that run without a
// Docker engine (test/ops/container.test.ts, test/container/run.ts).

export interface Instruction {
  stage: number;
  op: string;
  args: string;
}

/** A Dockerfile's instructions by stage: comments dropped, continued lines joined. */
export function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let stage = -1;
  const joined = text
    .split('\n')
    .filter((l) => !l.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  for (const line of joined.split('\n')) {
    const m = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === 'FROM') stage++;
    out.push({ stage, op: m[1]!, args: m[2]!.replace(/\s+/g, ' ').trim() });
  }
  return out;
}

/** KEY=value pairs of ENV instructions. */
export const envOf = (list: Instruction[]) => Object.fromEntries(list.filter((i) => i.op === 'ENV').flatMap((i) => [...i.args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!])));

/**
 * KEY=value lines as `docker run --env-file` reads them: a line that starts with # is a comment, and
 * a value is everything after the first '=', kept as written (a "# ..." after it included).
 */
export function dockerEnvFile(text: string): Record<string, string> {
  const lines = text.split('\n').filter((l) => l.trim() && !l.trimStart().startsWith('#'));
  return Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf('=')).trim(), l.slice(l.indexOf('=') + 1)]));
}
