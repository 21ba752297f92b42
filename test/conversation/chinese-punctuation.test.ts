// Chinese output uses full-width punctuation, with no ASCII space after it and no ASCII colon,
// semicolon or comma after a Han character: a whole conversation, as the engine renders it.
import { expect, it } from 'vitest';
import { Engine, type Origin } from '../../src/conversation/engine.ts';
import type { Message } from '../../src/conversation/render.ts';
import { renderDiagnosis } from '../../src/render/diagnosis-text.ts';
import { planSteps } from '../../src/plan/plan.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openStore } from '../../src/store/open.ts';
import { classify, kb } from '../helpers/kb.ts';
import { sample } from '../helpers/corpus.ts';
import { describeStores } from '../helpers/stores.ts';

const alice: Origin = { platform: 'discord', server: 'g1', channel: 'help', user: 'alice', locale: 'zh-CN' };
/** What users read: every block but code (commands and log lines stay as they are). */
const prose = (messages: Message[]) => messages.flatMap((m) => m.blocks.filter((b) => b.kind !== 'code').flatMap((b) => [b.text, ...(b.fields ?? []).flat()]));
const WRONG = [/[\p{sc=Han}）」”》][:;,](?=\s|$)/u, /[，。：；！？）」] /u];
const offenders = (texts: string[]) => texts.flatMap((x) => x.split('\n')).filter((l) => WRONG.some((re) => re.test(l.replace(/`[^`]*`/g, ''))));

describeStores('Chinese punctuation', (stores) => {
  it('is full-width in a whole conversation and in the terminal diagnosis', async () => {
    let clock = 1_700_000_000_000;
    const engine = new Engine({ kb, store: new CaseStore(await openStore(await stores.fresh())), now: () => (clock += 1000) });
    const shown: Message[] = [...(await engine.open(alice, sample('cf-0201').text))];
    const caseId = shown[0]!.caseId!;
    for (let i = 0; i < 20 && (await engine.state(caseId))?.status === 'open'; i++) {
      const s = (await engine.state(caseId))!;
      shown.push(...(await engine.press(`coom:${caseId}:${s.offer}:${s.awaiting === 'reason' ? 'rs' : s.awaiting === 'answer' ? 'f' : 'x'}`, alice)));
    }
    expect(shown.length).toBeGreaterThan(4);
    expect(offenders(prose(shown))).toEqual([]);
    const d = classify(sample('cf-0201').text);
    expect(offenders([renderDiagnosis(d, planSteps(d.entry, d.facts, kb), 'zh')])).toEqual([]);
  });
});
