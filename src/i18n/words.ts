// Which language a person writes in, told from their own words: the lines of a message that are
// not console output, whose language is the machine's (a Japanese Windows prints its page file error
// in Japanese to a user who may write English). Kana mark Japanese, hangul Korean; Chinese is
// Traditional where its characters are more often the traditional than the simplified forms.

/**
 * Lines only console output has: a traceback and its frames, an exception or warning line, a
 * timestamp, ComfyUI's own lines, a prompt or a path at the start, PyTorch's allocation report, and
 * what shells and launchers print in each language the bot speaks.
 */
export const LOG_LINE =
  /^(?:Traceback \(most recent call last\)|File "|at [\w.<$]|[\w.]*(?:Error|Exception|Warning|Interrupt):|!!!|\[?\d{4}-\d\d-\d\d|\[?\d\d:\d\d:\d\d|Requested to load|loaded (?:completely|partially)|got prompt|Prompt executed|model weight dtype|Total VRAM|Set vram state|Device: |pytorch version|ComfyUI version|Error occurred when executing|Exception (?:Type|Message)|Node (?:Type|ID)|[A-Za-z]:\\|~?\/[\w.-]+\/|\$ |>>> |\w+@[\w.-]+:)|Tried to allocate \d|^(?:Killed|Segmentation fault|Aborted \(core dumped\)|Press any key|请按任意键|請按任意鍵|続行するには|계속하려면|已杀死|強制結束|強制終了|죽었음)/;

/** The language a person's own words are written in, by their script; undefined for Latin letters (or too few words). */
export const wordsLang = (text: string) => scriptLang(ownWords(text));

/**
 * Whether words (a person's own, `ownWords`) are English sentences: Latin letters alone do not tell
 * (people writing other languages type English error words), a question or the first person does.
 */
export const writesEnglish = (words: string) => count(words, ENGLISH) >= 2;

/** The lines of a message that a person wrote, not a console. */
export const ownWords = (text: string) =>
  text
    .split('\n')
    .filter((l) => !LOG_LINE.test(l.trim()))
    .join('\n');

const KANA = /[\u3040-\u30ff]/g;
const HANGUL = /[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/g;
const HAN = /[\u4e00-\u9fff]/g;
/**
 * Common characters whose simplified and traditional forms differ, pair by pair (each pair as OpenCC's
 * tables convert it; enough of them turn up in any few sentences about a crash to tell the two apart).
 */
const SIMPLIFIED = /[这个们为说时会来对没还么样发现显问题动开关进实经过载后处应该让给话试装设电脑报错误图画运数据吗请谢帮点里启软网络页档长无级觉头边间简单两种写读选择节机门线带库压缩质虑变换转历记忆内统确认况参视频钮击损坏旧将从尽]/g;
const TRADITIONAL = /[這個們為說時會來對沒還麼樣發現顯問題動開關進實經過載後處應該讓給話試裝設電腦報錯誤圖畫運數據嗎請謝幫點裡啟軟網絡頁檔長無級覺頭邊間簡單兩種寫讀選擇節機門線帶庫壓縮質慮變換轉歷記憶內統確認況參視頻鈕擊損壞舊將從盡]/g;
/** Words a person writing English uses and console output does not: a question, a plea, the first person. */
const ENGLISH = /\b(?:i|i'm|i've|my|me|please|help|how|why|what|anyone|thanks|can't|doesn't|won't|tried|getting)\b/gi;
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/** The language a text is written in, by its script; undefined where it shows none but Latin (or too little to tell). */
export function scriptLang(text: string): 'zh' | 'zh-Hant' | 'ja' | 'ko' | undefined {
  const kana = count(text, KANA);
  const hangul = count(text, HANGUL);
  if (hangul >= 2 && hangul >= kana) return 'ko';
  if (kana >= 2) return 'ja';
  if (count(text, HAN) < 4) return undefined;
  return count(text, TRADITIONAL) > count(text, SIMPLIFIED) ? 'zh-Hant' : 'zh';
}
