// The numbers in an allocator's complaint: how much was asked for, how much the device has, how
// much was free, and how PyTorch held the rest. Every allocator words them differently.
import { gate, type Gate, type GatedLines } from '../gates.ts';
import type { Evidence } from './types.ts';

export interface AllocationFacts {
  requestedGb?: number;
  totalGb?: number;
  freeGb?: number;
  allocatedGb?: number;
  reservedUnallocatedGb?: number;
  evidence: { requestedGb?: Evidence; totalGb?: Evidence; freeGb?: Evidence };
}

const UNIT: Record<string, number> = { b: 1 / 1024 ** 3, bytes: 1 / 1024 ** 3, kb: 1 / 1024 ** 2, kib: 1 / 1024 ** 2, mb: 1 / 1024, mib: 1 / 1024, gb: 1, gib: 1, tb: 1024, tib: 1024 };
const SIZE = String.raw`([0-9][0-9,]{0,20}(?:\.[0-9]{1,6})?)\s{0,2}(bytes|[KMGT]i?B|B)\b`;

const toGb = (value: string, unit: string) => {
  const n = Number(value.replace(/,/g, ''));
  const u = UNIT[unit.toLowerCase()];
  return Number.isFinite(n) && u !== undefined ? Math.round(n * u * 10000) / 10000 : undefined;
};

type Field = 'requestedGb' | 'totalGb' | 'freeGb' | 'allocatedGb' | 'reservedUnallocatedGb';

/** Each wording, the field it fills, and which capture holds the size. */
const READINGS: { field: Field; re: RegExp }[] = [
  // PyTorch caching allocator, 2.x and 1.x
  { field: 'requestedGb', re: new RegExp(String.raw`tried to allocate ${SIZE}`, 'i') },
  { field: 'totalGb', re: new RegExp(String.raw`total capac?i?ty of ${SIZE}`, 'i') },
  { field: 'freeGb', re: new RegExp(String.raw`of which ${SIZE} (?:is )?free`, 'i') },
  { field: 'allocatedGb', re: new RegExp(String.raw`of the allocated memory ${SIZE} is allocated by pytorch`, 'i') },
  { field: 'reservedUnallocatedGb', re: new RegExp(String.raw`${SIZE} is reserved by pytorch but unallocated`, 'i') },
  { field: 'totalGb', re: new RegExp(String.raw`${SIZE} total capacity`, 'i') },
  { field: 'allocatedGb', re: new RegExp(String.raw`${SIZE} already allocated`, 'i') },
  { field: 'freeGb', re: new RegExp(String.raw`${SIZE} free;`, 'i') },
  // cudaMallocAsync ("Allocation on device 0 would exceed allowed memory")
  { field: 'allocatedGb', re: new RegExp(String.raw`currently allocated\s{0,30}:\s{0,4}${SIZE}`, 'i') },
  { field: 'requestedGb', re: new RegExp(String.raw`^\s{0,4}requested\s{0,30}:\s{0,4}${SIZE}`, 'i') },
  { field: 'totalGb', re: new RegExp(String.raw`device limit\s{0,30}:\s{0,4}${SIZE}`, 'i') },
  { field: 'freeGb', re: new RegExp(String.raw`free \(according to cuda\):\s{0,4}${SIZE}`, 'i') },
  // MPS
  { field: 'allocatedGb', re: new RegExp(String.raw`mps allocated:\s{0,2}${SIZE}`, 'i') },
  { field: 'totalGb', re: new RegExp(String.raw`max allowed:\s{0,2}${SIZE}`, 'i') },
  // CPU allocator, DirectML, NumPy
  { field: 'requestedGb', re: new RegExp(String.raw`you tried to allocate ${SIZE}`, 'i') },
  { field: 'requestedGb', re: new RegExp(String.raw`could not allocate tensor with ${SIZE}`, 'i') },
  { field: 'requestedGb', re: new RegExp(String.raw`unable to allocate ${SIZE} for an array`, 'i') },
];
const GATES: Gate[] = READINGS.map((r) => gate(r.re));
const WRAPPED = gate(/(?:allocate|capacity|of which|allocated|memory|total)\s{0,2}$/i);

/**
 * Re-joins a message that a chat window or a reporter wrapped ("... GPU 0 has a total" /
 * "capacity of 23.99 GiB ..."), keeping line numbers: the joined text sits on the first line.
 * Also says which lines were joined.
 */
function unwrap(text: GatedLines): { lines: readonly string[]; joined: number[] } {
  const { lines } = text;
  const joined = text.linesOf([WRAPPED]).filter((i) => i + 1 < lines.length && WRAPPED.re.test(lines[i]!) && /^\s{0,2}[a-z0-9]/.test(lines[i + 1]!));
  if (!joined.length) return { lines, joined };
  const out = [...lines];
  for (const i of joined) out[i] = `${lines[i]!.trimEnd()} ${lines[i + 1]!.trim()}`;
  return { lines: out, joined };
}

/** Reads the last complaint in the paste (a paste may hold several runs; the last one failed last). */
export function readAllocation(text: GatedLines): AllocationFacts {
  const out: AllocationFacts = { evidence: {} };
  const { lines, joined } = unwrap(text);
  // Only lines a reading may match (and joined ones, whose text is new) can say anything.
  const visit = [...new Set([...text.linesOf(GATES), ...joined])].sort((a, b) => b - a);
  // Fields of one complaint sit within a few lines: once the request is known, the walk ends
  // at the first line with a digit past its message.
  let last = -1;
  for (const i of visit) {
    if (i < last) break;
    const line = lines[i]!;
    if (!/\d/.test(line)) continue;
    // A joined line's text runs on into the next line, where the readings' literals may be.
    const whole = joined.includes(i);
    for (let k = 0; k < READINGS.length; k++) {
      const { field, re } = READINGS[k]!;
      if (out[field] !== undefined || (!whole && !text.mayMatch(GATES[k]!, i))) continue;
      const m = re.exec(line);
      if (!m) continue;
      const gb = toGb(m[1]!, m[2]!);
      if (gb === undefined) continue;
      out[field] = gb;
      if (field === 'requestedGb' || field === 'totalGb' || field === 'freeGb') {
        out.evidence[field] = { line: i, text: line, source: 'allocator message', strength: 1 };
      }
      if (field === 'requestedGb') last = lines.findLastIndex((l, k) => k <= i - 9 && /\d/.test(l));
    }
  }
  return out;
}
