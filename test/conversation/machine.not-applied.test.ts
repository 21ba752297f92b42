// The machine's "couldn't apply it" through the engine, on the real kb and both stores: a log
// pasted into a case that shows the step on screen never took effect (ComfyUI refused its flag,
// PyTorch ignored its setting) is recorded as such, and the next step follows.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { Engine, type Origin } from '../../src/conversation/engine.ts';
import type { Message } from '../../src/conversation/render.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openStore } from '../../src/store/open.ts';
import { describeStores, type Stores } from '../helpers/stores.ts';
import { kb } from '../helpers/kb.ts';

const alice: Origin = { platform: 'discord', server: 'g1', channel: 'help', user: 'alice' };
const golden = (name: string) => readFileSync(fileURLToPath(new URL(`../golden/plans/${name}.log`, import.meta.url)), 'utf8');

const setupOn = (stores: Stores) => async () => {
  let clock = 1_700_000_000_000;
  const store = new CaseStore(await openStore(await stores.fresh()));
  return { store, engine: new Engine({ kb, store, now: () => (clock += 1000) }) };
};
const text = (messages: Message[]) => messages.flatMap((m) => m.blocks.map((b) => b.text)).join('\n');
/** The title of the step a reply offers ("Step 4 of 5: …", "One more idea (1 of 6): …", "第 4 步（共 5 步）: …"). */
const offered = (messages: Message[]) => messages.flatMap((m) => m.blocks).find((b) => b.kind === 'title' && /^(?:Step \d+ of|One more idea|第 \d+ 步|更多办法)/.test(b.text))?.text;

/** Opens a case on the Linux ROCm log and skips to the step with this id. */
async function at(engine: Engine, stepId: string, origin = alice) {
  const out = await engine.open(origin, golden('amd-linux-rocm'));
  const caseId = out[0]!.caseId!;
  let s = (await engine.state(caseId))!;
  while (s.plan.steps[s.index] !== stepId) {
    await engine.press(`coom:${caseId}:${s.offer}:s`, alice);
    s = (await engine.state(caseId))!;
  }
  return caseId;
}

describeStores('a new log showing the step never took effect', (stores) => {
  const setup = setupOn(stores);
  it('records an argparse refusal as "couldn\'t apply it", explains the flag and offers the next step', async () => {
    const { engine, store } = await setup();
    const caseId = await at(engine, 'reserve-vram');
    const out = await engine.paste(caseId, 'user@rig:~/ComfyUI$ python main.py --listen 0.0.0.0 --reserve-vram=2 --vram-headroom 1\nusage: main.py [-h] [--listen [IP]]\nmain.py: error: unrecognized arguments: --vram-headroom 1', alice);
    expect(text(out)).toContain('did not take effect, so I recorded it as "couldn\'t apply it"');
    expect(text(out)).toContain('ComfyUI refused a launch flag');
    expect(text(out)).toContain('`--vram-headroom` first came with ComfyUI 0.25.0 (June 2026)');
    expect(offered(out)).toMatch(/^(?:Step \d+ of \d+|One more idea \(\d+ of \d+\)): AMD: know your stack's quirks$/);
    const s = (await engine.state(caseId))!;
    expect(s.status).toBe('open');
    expect(s.tried.at(-1)).toEqual({ entry: 'amd-hip-oom', step: 'reserve-vram', answer: 'failed', reason: 'could_not_apply' });
    expect((await store.get(caseId))!.row.status).toBe('open');
  });

  it('records a log whose launch line lacks the step\'s flag the same way, in Chinese too', async () => {
    const { engine } = await setup();
    const caseId = await at(engine, 'update-or-rollback', { ...alice, lang: 'zh' });
    // A step that changes no launch flag: the same log again is just the same failure.
    const same = await engine.paste(caseId, golden('amd-linux-rocm'), alice);
    expect(text(same)).toContain('还是同样的错误');
    expect((await engine.state(caseId))!.tried.at(-1)).toMatchObject({ step: 'update-or-rollback', reason: 'same' });
    expect(offered(same)).toMatch(/主动卸载模型/);
    // The same launch line again, without the step's --disable-smart-memory: the change never reached ComfyUI.
    const out = await engine.paste(caseId, golden('amd-linux-rocm'), alice);
    expect(text(out)).toContain('没有生效，所以记为“没法照做”');
    expect((await engine.state(caseId))!.tried.at(-1)).toMatchObject({ step: 'attention-and-smart-memory', reason: 'could_not_apply' });
  });
});
