// One guided conversation in each language the bot speaks, told by the user's own words around the
// log (or, with a bare log, by their Discord locale): the diagnosis, every step, the buttons, the
// question why a step failed and the close all come in that language, and the case keeps it.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine, type Origin } from '../../src/conversation/engine.ts';
import type { Message } from '../../src/conversation/render.ts';
import { LANGS, type Lang } from '../../src/i18n/messages.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openStore } from '../../src/store/open.ts';
import { kb } from '../helpers/kb.ts';

/** A portable install's console with a KSampler OOM, and no words of its user's (test/golden/plans). */
const LOG = readFileSync(new URL('../golden/plans/old-portable-nvidia.log', import.meta.url), 'utf8');
const WORDS: Record<Lang, string> = {
  en: 'I get this every time I run KSampler, how do I fix it?',
  zh: '每次跑 KSampler 都报这个错，该怎么办？',
  'zh-Hant': '每次跑 KSampler 都出現這個錯誤，該怎麼辦？',
  ja: 'KSamplerを実行するたびにこのエラーが出ます。どうすればいいですか？',
  ko: 'KSampler를 실행할 때마다 이 오류가 나요. 어떻게 해야 하나요?',
};
const LOCALE: Record<Lang, string> = { en: 'en-US', zh: 'zh-CN', 'zh-Hant': 'zh-TW', ja: 'ja', ko: 'ko' };

const KANA = /[\u3040-\u30ff]/;
const HANGUL = /[\uac00-\ud7af]/;
const HAN = /\p{sc=Han}/u;
/** Characters only Simplified Chinese writes (their traditional forms differ). */
const SIMPLIFIED_ONLY = /[这个们为说时会来对没还么样发现显问题动开关进实经过载后处应该让给话试装设电脑报错误图运数据请点启软网络页档无级头边间简单两种写读选择节机门线带库压缩变换转历记忆统确认况参频钮击损坏旧将从尽]/;

/** What a user sees written in `lang`: its script is there, the other languages' are not. */
function expectWrittenIn(text: string, lang: Lang) {
  const has = { kana: KANA.test(text), hangul: HANGUL.test(text), han: HAN.test(text) };
  if (lang === 'en') expect(has, text).toEqual({ kana: false, hangul: false, han: false });
  if (lang === 'ja') expect(has.kana && !has.hangul, text).toBe(true);
  if (lang === 'ko') expect(has.hangul && !has.kana, text).toBe(true);
  if (lang === 'zh' || lang === 'zh-Hant') expect(has.han && !has.kana && !has.hangul, text).toBe(true);
  if (lang === 'zh-Hant') expect(text).not.toMatch(SIMPLIFIED_ONLY);
}

const shown = (messages: Message[]) => messages.flatMap((m) => [...m.blocks.map((b) => b.text), ...(m.buttons ?? []).map((b) => b.label)]).join('\n');
const press = (messages: Message[], code: string) => messages.flatMap((m) => m.buttons ?? []).find((b) => b.id.endsWith(`:${code}`))!.id;

describe.each(LANGS)('a conversation in %s', (lang) => {
  it.each([
    ["the user's words around the log", { paste: `${WORDS[lang]}\n${LOG}`, locale: undefined }],
    ['a bare log and the user’s Discord locale', { paste: LOG, locale: LOCALE[lang] }],
  ])('told by %s: diagnoses, walks the steps and closes in it', async (_by, { paste, locale }) => {
    const db = await openStore({ db: join(mkdtempSync(join(tmpdir(), 'languages-')), 'cases.db') });
    let clock = 1_700_000_000_000;
    const engine = new Engine({ kb, store: new CaseStore(db), now: () => (clock += 1000) });
    const user: Origin = { platform: 'discord', server: 'g1', channel: 'help', user: 'u1', ...(locale ? { locale } : {}) };

    const opened = await engine.open(user, paste);
    const caseId = opened[0]!.caseId!;
    expect((await engine.state(caseId))!.lang).toBe(lang);
    expectWrittenIn(shown(opened), lang);

    const why = await engine.press(press(opened, 'f'), user);
    expectWrittenIn(shown(why), lang);
    const next = await engine.press(press(why, 'rs'), user);
    expectWrittenIn(shown(next), lang);
    const done = await engine.press(press(next, 'w'), user);
    expectWrittenIn(shown(done), lang);
    expect((await engine.state(caseId))!.status).toBe('resolved');
    await db.close();
  });
});
