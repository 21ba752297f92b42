// Hostile or absurd input must come back with an answer, never a hang or a crash. (Speed is
// measured by `npm run bench`, not here.)
import { describe, expect, it } from 'vitest';
import { classify } from '../helpers/kb.ts';

const MB = 1024 * 1024;

describe('hostile input', () => {
  it.each([
    ['one 5 MB line of a single character', 'a'.repeat(5 * MB)],
    ['5 MB of nesting', '(['.repeat(2.5 * MB)],
    ['100k-line log ending in an OOM', `${'  File "x.py", line 1, in f\n'.repeat(100_000)}torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB`],
    ['a repeated allocator phrase', 'Tried to allocate '.repeat(200_000)],
    ['binary noise', Buffer.from(Array.from({ length: MB }, (_, i) => (i * 7919) % 256)).toString('latin1')],
    ['an empty paste', ''],
  ])('%s', (_name, text) => {
    const d = classify(text);
    expect(d.category).toBeTruthy();
    expect(d.confidence).toBeGreaterThanOrEqual(0);
  });

  it('still finds the OOM at the end of a huge log', () => {
    const d = classify(`${'got prompt\n'.repeat(200_000)}!!! Exception during processing !!! HIP out of memory. Tried to allocate 2.25 GiB.`);
    expect(d.category).toBe('oom_amd_hip');
    expect(d.truncated).toBe(true);
  });
});
