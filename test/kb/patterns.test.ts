import { describe, expect, it } from 'vitest';
import { checkPatternSafety } from '../../src/classify/patterns.ts';

describe('kb pattern safety', () => {
  it.each([
    ['(a+)+$', /nested/],
    ['(x\\d{1,3}[,.]?)*', /nested/],
    ['out of .* memory', /unbounded/],
    ['[^"]+ file', /unbounded/],
    ['a{2,}', /open-ended/],
    ['(a)\\1', /backreference/],
    ['foo(?=bar)', /lookaround/],
    ['([unclosed', /not a valid/],
  ])('rejects %s', (pattern, why) => {
    expect(checkPatternSafety(pattern)).toMatch(why);
  });

  it.each(['cuda[ \\t]{0,2}out of memory', 'tried to allocate [0-9.]{1,12} ?[KMGT]i?B', '\\(IMPORT FAILED\\)', '(?:decoding|encoding), retrying'])(
    'accepts %s',
    (pattern) => expect(checkPatternSafety(pattern)).toBeUndefined(),
  );
});
