// Which language the bot answers in: the script of the user's own words (not their log's), then
// their Discord or Slack locale, then English sentences, then the server's default, then the
// language of the log's own messages.
import { describe, expect, it } from 'vitest';
import { localeLang, wordsLang, writesEnglish } from '../../src/i18n/messages.ts';
import { langFor } from '../../src/conversation/engine.ts';

const LOG = ['got prompt', 'Requested to load SDXL', 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.'].join('\n');
/** A Japanese Windows prints its own errors in Japanese, whatever its user writes. */
const JAPANESE_LOG = ['got prompt', 'OSError: [WinError 1455] ページング ファイルが小さすぎるため、この操作を完了できません。'].join('\n');

describe("the user's own words", () => {
  it.each([
    ['Japanese prose (kanji with kana), not Chinese', `KSamplerでメモリ不足になります。解像度は1024です。\n${LOG}`, 'ja'],
    ['Korean prose', `KSampler에서 메모리가 부족합니다. 어떻게 해야 하나요?\n${LOG}`, 'ko'],
    ['Traditional Chinese prose', `跑 KSampler 的時候顯示記憶體不足，這個問題該怎麼處理？\n${LOG}`, 'zh-Hant'],
    ['Simplified Chinese prose', `跑 KSampler 的时候显存不足，这个问题该怎么处理？\n${LOG}`, 'zh'],
  ])('tell %s', (_what, text, lang) => {
    expect(wordsLang(text)).toBe(lang);
  });

  it('tell English sentences apart from English error words, after the locale', () => {
    const asked = `I get this error every time, how do I fix it?\n${JAPANESE_LOG}`;
    expect(writesEnglish(asked)).toBe(true);
    expect(writesEnglish(JAPANESE_LOG)).toBe(false);
    expect(langFor(undefined, asked, 'zh')).toBe('en');
    expect(langFor('zh-CN', asked)).toBe('zh');
    expect(langFor(undefined, JAPANESE_LOG)).toBe('ja');
  });

  it.each([
    ['a bare log', LOG],
    ["a log whose own messages are Japanese (the machine's language, not the user's words)", JAPANESE_LOG],
    ['a word or two', 'help'],
  ])('do not tell from %s', (_what, text) => {
    expect(wordsLang(text)).toBeUndefined();
  });
});

describe('the locale, the place and the log, when the words do not tell', () => {
  it.each([
    ['zh-CN', 'zh'],
    ['zh-TW', 'zh-Hant'],
    ['zh-HK', 'zh-Hant'],
    ['ja', 'ja'],
    ['ja-JP', 'ja'],
    ['ko', 'ko'],
    ['ko-KR', 'ko'],
    ['en-US', 'en'],
    ['fr', undefined],
  ])("reads Discord's and Slack's locale %s", (locale, lang) => {
    expect(localeLang(locale)).toBe(lang);
  });

  it("prefers the user's words, then the locale, then the place's default, then the log's language", () => {
    expect(langFor('ja', `KSampler에서 메모리가 부족합니다. 도와주세요.\n${LOG}`, 'zh')).toBe('ko');
    expect(langFor('ja', LOG, 'zh')).toBe('ja');
    expect(langFor('fr', LOG, 'zh-Hant')).toBe('zh-Hant');
    expect(langFor(undefined, JAPANESE_LOG)).toBe('ja');
    expect(langFor(undefined, LOG)).toBe('en');
  });
});
