// A flag the user added at an earlier step stays in every later "whole line" the bot shows.
import { expect, it } from 'vitest';
import { Engine, type Origin } from '../../src/conversation/engine.ts';
import type { Message } from '../../src/conversation/render.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openStore } from '../../src/store/open.ts';
import { kb } from '../helpers/kb.ts';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from './pastes.ts';
import { describeStores } from '../helpers/stores.ts';

const alice: Origin = { platform: 'discord', server: 'g1', channel: 'help', user: 'alice' };
const code = (messages: Message[]) => messages.flatMap((m) => m.blocks.filter((b) => b.kind === 'code').map((b) => b.text)).join('\n');

describeStores('flags added at earlier steps', (stores) => {
  it('stay on the line of later steps once carried out, and not when the step was skipped', async () => {
    for (const answer of ['f', 's'] as const) {
      let clock = 1_700_000_000_000;
      const engine = new Engine({ kb, store: new CaseStore(await openStore(await stores.fresh())), now: () => (clock += 1000) });
      const caseId = (await engine.open(alice, onNvidia(sample('cf-0214').text)))[0]!.caseId!;
      let s = (await engine.state(caseId))!;
      while (s.plan.steps[s.index] !== 'reserve-vram') {
        await engine.press(`coom:${caseId}:${s.offer}:s`, alice);
        s = (await engine.state(caseId))!;
      }
      let out = await engine.press(`coom:${caseId}:${s.offer}:${answer}`, alice);
      if (answer === 'f') out = await engine.press(`coom:${caseId}:${(await engine.state(caseId))!.offer}:rs`, alice);
      const next = (await engine.state(caseId))!;
      expect(next.plan.steps[next.index - 1]).toBe('reserve-vram');
      const line = code(out);
      expect(line, `${answer}: ${next.plan.steps[next.index]}`).toMatch(/main\.py/);
      if (answer === 'f') expect(line).toMatch(/--reserve-vram \d/);
      else expect(line).not.toMatch(/--reserve-vram/);
    }
  });
});
