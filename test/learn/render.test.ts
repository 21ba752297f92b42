// What users are told about recorded outcomes: a step's fix rate once 20 people tried it (confirmed
// fixes only, assumed ones apart), and what a confirmed fix does for others, only where it does it.
import { describe, expect, it } from 'vitest';
import { step } from '../../src/conversation/machine.ts';
import { renderReplies } from '../../src/conversation/render.ts';
import { loadKb } from '../../src/kb/load.ts';
import { POLICY, type StepsRecord } from '../../src/learn/index.ts';

const kb = loadKb();
const plan = { entry: 'gpu-oom-vae', category: 'oom_gpu_vae', steps: ['tiled-vae-decode', 'reduce-workload'] };
const texts = (lang: 'en' | 'zh', learned: StepsRecord, action?: 'worked') => {
  let t = step(undefined, { kind: 'open', at: 0, caseId: 'k', owner: 'u', lang, plan });
  if (action) t = step(t.state, { kind: 'action', at: 1, offer: 1, action, actor: 'u', moderator: false });
  return renderReplies(t.replies, { kb, state: t.state!, facts: [], planned: new Map(), learned })
    .flatMap((m) => m.blocks.map((b) => b.text))
    .join('\n');
};
const record = (tried: number, fixed: number, assumed: number, o: Partial<StepsRecord> = {}): StepsRecord => ({
  mode: 'on',
  adapts: true,
  confirmed: 50,
  steps: new Map([['tiled-vae-decode', { tried, fixed, assumed }]]),
  ...o,
});

describe('recorded outcomes, as users see them', () => {
  it(`shows "fixed it for x% of n people" from ${POLICY.showRateAfter} tries, confirmed fixes only, assumed ones apart`, () => {
    expect(texts('en', record(120, 49, 7))).toMatch(/Fixed it for 41% of 120 people with this error\. 7 more got past the error, judging by their next log \(not counted above\)\./);
    expect(texts('zh', record(120, 49, 0))).toMatch(/遇到这个错误并试过这一步的 120 人中，41% 确认解决了。/);
    expect(texts('en', record(POLICY.showRateAfter - 1, 10, 0))).not.toMatch(/Fixed it for/);
  });

  it('says a confirmed fix reorders others’ steps where learning is on, will once enough are confirmed, and only counts for stats where it is off', () => {
    expect(texts('en', record(0, 0, 0), 'worked')).toMatch(/Great, fixed by: Decode in tiles[^\n]*\nI recorded it: confirmed fixes decide which step others with this error are shown first\./);
    expect(texts('zh', record(0, 0, 0), 'worked')).toMatch(/确认有效的办法决定了之后遇到同样错误的人先看到哪一步/);
    expect(texts('en', record(0, 0, 0, { mode: 'suggest', confirmed: 3 }), 'worked')).toMatch(new RegExp(`once ${POLICY.autoOnConfirmed} people have confirmed a fix for this error \\(3 so far\\)`));
    const off = texts('en', record(0, 0, 0, { mode: 'off', adapts: false }), 'worked');
    expect(off).toMatch(/I recorded it for the moderators’ statistics\./);
    expect(off).not.toMatch(/shown first|get this fix sooner/);
  });
});
