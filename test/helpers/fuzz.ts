// Inputs a careless or hostile user sends, generated from a seed so every run sees the same ones:
// real pastes with flipped bytes or cut short, NUL and lone surrogates, megabytes on one line,
// JSON nested ten thousand deep, entity and line-break bombs, random bytes as text and as files,
// binaries shaped like UTF-16. Shared by the fuzz test (a few thousand) and `npm run bench -- fuzz`.
import { seeded as prng } from '../../src/learn/random.ts';
import { corpus } from './corpus.ts';

export interface FuzzInput {
  kind: string;
  text?: string;
  file?: { name: string; bytes: Buffer };
}

const MB = 1024 * 1024;

export function* fuzzInputs(count: number, seed: number, o: { bigMb: number } = { bigMb: 2 }): Generator<FuzzInput> {
  const rand = prng(seed);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]) => xs[int(xs.length)]!;
  const paste = () => pick(corpus).text;
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(256)));

  const kinds: [string, () => FuzzInput][] = [
    ['byte flips', () => {
      const chars = [...paste()];
      for (let k = 0; k < 1 + int(20); k++) chars[int(chars.length)] = String.fromCharCode(int(0x10000));
      return { kind: 'byte flips', text: chars.join('') };
    }],
    ['cut short', () => {
      const t = paste();
      return { kind: 'cut short', text: t.slice(0, int(t.length)) };
    }],
    ['NUL inside', () => {
      const t = paste().repeat(1 + int(8));
      const at = int(t.length);
      return { kind: 'NUL inside', text: `${t.slice(0, at)}\u0000${t.slice(at)}` };
    }],
    ['lone surrogates', () => ({ kind: 'lone surrogates', text: `${paste()}\ud800 \udfff x\udbff` })],
    ['megabytes on one line', () => ({ kind: 'megabytes on one line', text: `${'CUDA out of memory '.repeat(Math.ceil((o.bigMb * MB) / 19))}` })],
    ['a huge log', () => ({ kind: 'a huge log', text: (paste() + '\n').repeat(Math.ceil((o.bigMb * MB) / 4000)).slice(0, o.bigMb * MB) })],
    ['deep JSON', () => ({ kind: 'deep JSON', text: `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}\n${'['.repeat(10_000)}` })],
    ['entity bomb', () => ({ kind: 'entity bomb', text: '&amp;'.repeat(50_000) + '&#x10FFFF;&#99999999;&lt;' })],
    ['line-break bomb', () => ({ kind: 'line-break bomb', text: '\r'.repeat(200_000) + paste() })],
    ['random text', () => ({ kind: 'random text', text: bytes(1 + int(20_000)).toString('latin1') })],
    ['a workflow mangled', () => {
      const wf = JSON.stringify({ nodes: [{ type: 'KSampler', widgets_values: [int(1e9), 'x'] }, { type: 'EmptyLatentImage', widgets_values: [int(1e6), -5, 'NaN'] }] });
      return { kind: 'a workflow mangled', text: `${paste()}\n${wf.slice(0, int(wf.length))}` };
    }],
    ['random bytes as a file', () => ({ kind: 'random bytes as a file', file: { name: pick(['error.log', 'log.txt', 'workflow.json', 'shot.png', 'notes.md']), bytes: bytes(1 + int(100_000)) } })],
    ['a binary shaped like UTF-16', () => {
      const b = Buffer.alloc(2 + 2 * (1 + int(5000)));
      b[0] = 0xff;
      b[1] = 0xfe;
      for (let i = 2; i < b.length; i += 2) b[i] = int(256);
      return { kind: 'a binary shaped like UTF-16', file: { name: 'error.log', bytes: b } };
    }],
    ['a real log as a file', () => ({ kind: 'a real log as a file', file: { name: 'error.log', bytes: Buffer.from(paste(), pick(['utf8', 'utf16le', 'latin1'] as const)) } })],
    ['empty and blank', () => ({ kind: 'empty and blank', text: pick(['', ' ', '\n\n\t', '\u200b\ufeff', '```\n```']) })],
  ];
  for (let i = 0; i < count; i++) yield pick(kinds)[1]();
}
