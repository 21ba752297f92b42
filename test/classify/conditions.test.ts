import { describe, expect, it } from 'vitest';
import { compareVersions, evaluate } from '../../src/classify/conditions.ts';
import type { Facts } from '../../src/classify/facts/types.ts';

const facts = (f: Partial<Facts>): Facts => ({ signatures: [], flags: [], evidence: {}, ...f });

describe('conditions over facts', () => {
  it('is unknown, not false, when the paste does not mention the fact', () => {
    expect(evaluate({ fact: 'os', is: 'windows' }, facts({})).truth).toBeUndefined();
    expect(evaluate({ fact: 'os', is: 'windows' }, facts({ os: 'linux' })).truth).toBe(false);
    expect(evaluate({ fact: 'os', known: false }, facts({})).truth).toBe(true);
  });

  it('treats array facts as known-empty', () => {
    expect(evaluate({ fact: 'flags', has: '--lowvram' }, facts({})).truth).toBe(false);
    expect(evaluate({ fact: 'flags', hasAny: ['--novram', '--lowvram'] }, facts({ flags: ['--lowvram'] })).truth).toBe(true);
  });

  it('compares numbers and versions', () => {
    expect(evaluate({ fact: 'vramGb', lt: 12 }, facts({ vramGb: 8 })).truth).toBe(true);
    expect(evaluate({ fact: 'vramGb', gte: 12 }, facts({ vramGb: 8 })).truth).toBe(false);
    expect(evaluate({ fact: 'comfyuiVersion', versionLt: '0.3.65' }, facts({ comfyuiVersion: '0.3.9' })).truth).toBe(true);
    expect(evaluate({ fact: 'comfyuiVersion', versionGte: '0.3.65' }, facts({ comfyuiVersion: '0.15.0' })).truth).toBe(true);
    expect(compareVersions('0.3.10', '0.3.9')).toBe(1);
    expect(compareVersions('2.7.0+cu128', '2.7')).toBe(0);
  });

  it('combines with three-valued all/any/not and counts the tests that held', () => {
    const f = facts({ oom: 'cuda', stage: 'sampling' });
    const both = evaluate({ all: [{ fact: 'oom', is: 'cuda' }, { fact: 'stage', is: 'sampling' }] }, f);
    expect(both).toEqual({ truth: true, held: ['oom', 'stage'] });
    expect(evaluate({ all: [{ fact: 'oom', is: 'cuda' }, { fact: 'os', is: 'windows' }] }, f)).toEqual({ truth: undefined, held: ['oom'] });
    expect(evaluate({ all: [{ fact: 'oom', is: 'hip' }, { fact: 'os', is: 'windows' }] }, f).truth).toBe(false);
    expect(evaluate({ any: [{ fact: 'os', is: 'windows' }, { fact: 'oom', is: 'cuda' }] }, f)).toEqual({ truth: true, held: ['oom'] });
    expect(evaluate({ not: { fact: 'os', is: 'windows' } }, f).truth).toBeUndefined();
    expect(evaluate({ not: { fact: 'oom', is: 'hip' } }, f).truth).toBe(true);
  });
});
