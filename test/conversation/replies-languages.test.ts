// Typed answers at a step in Traditional Chinese, Japanese and Korean, the words the steps
// themselves invite ("まだ OOM", "해결됐어요"), read for what they say as the English and the
// Simplified Chinese are (kb/replies.yaml).
import { describe, expect, it } from 'vitest';
import { replyReader } from '../../src/conversation/replies.ts';
import { kb } from '../helpers/kb.ts';

const read = replyReader(kb.replies);

const LANGUAGES: [string, [string, string][]][] = [
  ['zh-Hant', [['還是不行', 'failing'], ['沒用，一樣的錯', 'failing'], ['解決了', 'worked'], ['可以了，謝謝', 'worked'], ['換了個錯誤', 'different'], ['找不到這個設定', 'could_not_apply'], ['跳過', 'skip'], ['怎麼設定分頁檔？', 'question'], ['不是我的問題', 'wrong'], ['算了', 'stop']]],
  ['ja', [['まだ OOM です', 'failing'], ['解決できなかった', 'failing'], ['直りません', 'failing'], ['解決しました', 'worked'], ['ありがとう、直りました', 'worked'], ['別のエラーが出ました', 'different'], ['設定が見つからない', 'could_not_apply'], ['スキップ', 'skip'], ['どうすればいいですか？', 'question'], ['私の問題ではないです', 'wrong'], ['やめます', 'stop']]],
  ['ko', [['아직 OOM이에요', 'failing'], ['안 돼요', 'failing'], ['해결 못 했어요', 'failing'], ['해결됐어요', 'worked'], ['다른 오류가 나요', 'different'], ['설정을 못 찾겠어요', 'could_not_apply'], ['건너뛰기', 'skip'], ['어떻게 해야 하나요?', 'question'], ['제 문제가 아니에요', 'wrong'], ['그만할게요', 'stop']]],
];

describe.each(LANGUAGES)('typed answers in %s', (_lang, replies) => {
  it.each(replies)('reads "%s" as %s', (reply, intent) => {
    expect(read(reply)).toBe(intent);
  });
});
