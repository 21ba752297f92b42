// Words typed at a step are answers: the case moves as if the matching button had been pressed,
// on the real kb and both stores. None of them is taken for a new log.
import { expect, it } from 'vitest';
import { Engine, type Origin } from '../../src/conversation/engine.ts';
import type { Message } from '../../src/conversation/render.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openStore } from '../../src/store/open.ts';
import { kb } from '../helpers/kb.ts';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from './pastes.ts';
import { describeStores, type Stores } from '../helpers/stores.ts';

const ksampler = onNvidia(sample('cf-0214').text);
const alice: Origin = { platform: 'discord', server: 'g1', channel: 'help', user: 'alice' };
const text = (messages: Message[]) => messages.flatMap((m) => m.blocks.map((b) => b.text)).join('\n');

const setupOn = (stores: Stores) => async () => {
  let clock = 1_700_000_000_000;
  const store = new CaseStore(await openStore(await stores.fresh()));
  const engine = new Engine({ kb, store, now: () => (clock += 1000) });
  const caseId = (await engine.open(alice, ksampler))[0]!.caseId!;
  const first = (await engine.state(caseId))!;
  const types = (await store.records(caseId)).length;
  /** The records the reply added, by type. */
  const added = async () => (await store.records(caseId)).slice(types).map((r) => r.type);
  return { store, engine, caseId, first, added };
};

describeStores('typed answers at a step', (stores) => {
  const setup = setupOn(stores);

  it.each(['still OOM', 'OOM again :(', "that didn't work, still out of memory", '还是显存不足'])('"%s" is the same failure: the next step, no new log', async (said) => {
    const { engine, caseId, first, added } = await setup();
    await engine.paste(caseId, said, alice);
    const s = (await engine.state(caseId))!;
    expect(s.tried.at(-1)).toEqual({ entry: first.plan.entry, step: first.plan.steps[first.index], answer: 'failed', reason: 'same' });
    expect(s.index).toBe(first.index + 1);
    expect(s.plan).toEqual(first.plan);
    expect(await added()).not.toContain('log_pasted');
    expect(await added()).not.toContain('plan_switched');
  });

  it('"it worked!" and "解决了" resolve the case as confirmed', async () => {
    for (const said of ['it worked!', '解决了']) {
      const { engine, store, caseId, first } = await setup();
      await engine.paste(caseId, said, alice);
      expect((await store.get(caseId))!.row).toMatchObject({ status: 'resolved', resolution: 'confirmed' });
      expect((await engine.state(caseId))!.resolvingStep).toBe(first.plan.steps[first.index]);
    }
  });

  it('a different error asks for its log; "I can\'t find that setting" records "couldn\'t apply it"', async () => {
    const different = await setup();
    await different.engine.paste(different.caseId, 'it got further, now I get a different error', alice);
    expect((await different.engine.state(different.caseId))!).toMatchObject({ awaiting: 'log' });
    const cannot = await setup();
    await cannot.engine.paste(cannot.caseId, "I can't find that setting", alice);
    expect((await cannot.engine.state(cannot.caseId))!.tried.at(-1)).toMatchObject({ answer: 'failed', reason: 'could_not_apply' });
  });

  it("someone else's words change nothing and store nothing", async () => {
    const { engine, caseId, first, added } = await setup();
    const out = await engine.paste(caseId, 'still OOM', { ...alice, user: 'bob' });
    expect(out.every((m) => m.ephemeral)).toBe(true);
    expect(await added()).toEqual([]);
    expect((await engine.state(caseId))!.index).toBe(first.index);
  });

  it('a question about the step shows it again, records nothing', async () => {
    const { engine, caseId, first, added } = await setup();
    const out = await engine.paste(caseId, 'does --lowvram help with OOM?', alice);
    expect(text(out)).toContain(`Step ${first.index + 1} of`);
    expect(await added()).toEqual([]);
  });

  it('words that do not say ask "did that fix it?" with the buttons; "trying now" waits; "stop" ends the case', async () => {
    const { engine, store, caseId, added } = await setup();
    const unsure = await engine.paste(caseId, 'thanks!', alice);
    expect(text(unsure)).toMatch(/fix it\? Press a button/);
    expect(unsure.flatMap((m) => m.buttons ?? []).map((b) => b.label)).toContain('Worked');
    expect(text(await engine.paste(caseId, 'trying that now', alice))).toMatch(/Take your time/);
    expect(await added()).toEqual([]);
    await engine.paste(caseId, 'stop', alice);
    expect((await store.get(caseId))!.row.status).toBe('cancelled');
  });
});

describeStores('a fix confirmed after the idle close', (stores) => {
  it('"it worked" typed, or Worked pressed, after a silent case was closed still records the confirmed fix', async () => {
    for (const how of ['typed', 'pressed'] as const) {
      let clock = 1_700_000_000_000;
      const store = new CaseStore(await openStore(await stores.fresh()));
      const engine = new Engine({ kb, store, now: () => (clock += 1000), idleMs: 60_000 });
      const step = await engine.open(alice, ksampler);
      const caseId = step[0]!.caseId!;
      const worked = step.flatMap((m) => m.buttons ?? []).find((b) => b.label === 'Worked')!.id;
      clock += 40_000;
      // Halfway: one reminder with the step's buttons; then silence until the close.
      const reminded = await engine.sweep(['discord']);
      expect(reminded.map((s) => s.caseId)).toEqual([caseId]);
      expect(reminded[0]!.messages[0]!.blocks[0]!.text).toMatch(/^Still there\?/);
      expect(reminded[0]!.messages[0]!.buttons?.map((b) => b.label)).toContain('Worked');
      expect(await engine.sweep(['discord'])).toEqual([]);
      clock += 3_600_000;
      expect((await engine.sweep(['discord'])).map((s) => s.caseId)).toEqual([caseId]);
      expect((await store.get(caseId))!.row.status).toBe('abandoned');
      await (how === 'typed' ? engine.paste(caseId, 'it worked, thanks!', alice) : engine.press(worked, alice));
      expect((await store.get(caseId))!.row, how).toMatchObject({ status: 'resolved', resolution: 'confirmed' });
    }
  });
});
