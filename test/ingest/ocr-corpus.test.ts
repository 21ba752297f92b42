// Screenshots of real pastes in every style the renderer has (consoles light at 100% and dark at
// 150%, a dark Discord code block as JPEG, a light phone chat in a proportional font cut mid-word
// as JPEG, a Windows console, ComfyUI's error dialog), read through the real ingest path
// (preparation, the screenshot tests' OCR pool, rebuilt lines) and classified. A fixed number of strictly
// labelled samples, spread over the batches the bars were set on and rotated through the styles,
// keeps the run the same however the corpus grows. OCR is judged against the classification of the text the
// screenshot shows (the classifier changes under this test; OCR should not change its answer), and
// the label is reported beside it.
import { describe, expect, it } from 'vitest';
import { answersScreenshot } from '../../src/conversation/engine.ts';
import { ingest } from '../../src/ingest/ingest.ts';
import { classify } from '../helpers/kb.ts';
import { ocr as pool } from '../helpers/ocr.ts';
import { strict } from '../helpers/corpus.ts';
import { consoleStyle, renderScreenshot, STYLES, type ShotStyle } from '../helpers/screenshot.ts';

const SAMPLES = 108;
/**
 * The batches the styles' bars were checked on. Which samples land in which style turns on the
 * corpus's size, and 18 a style make one miss 6%: a batch added for the classifier would otherwise
 * move the OCR bars unseen. (harvest3 and harvest4 joined once cmd.exe's white title bar no longer
 * decided the polarity of its black console, and a frame's doubled quote and `factory_ kwargs` were
 * mended: the Windows console went from 15/18 to 18/18. With harvest5 and harvest6: 107/108.)
 */
const OCR_BATCHES = new Set(['dev', 'dev2', 'harvest', 'harvest2', 'harvest3', 'harvest4', 'harvest5', 'harvest6']);
const candidates = strict.filter((s) => OCR_BATCHES.has(s.batch));
const styles: ShotStyle[] = Object.values(STYLES);

async function read(image: Buffer, name: string) {
  const got = await ingest({ attachments: [{ name, read: async () => image }] }, pool);
  const ocr = got.ocr[0];
  if (!ocr) throw new Error(`${name}: ${got.problems.map((p) => p.kind).join(', ')}`);
  return { ...ocr, otherText: got.otherText };
}

describe('OCR of screenshots in every style', () => {
  it('keeps the underscores and dots of small console text', async () => {
    const frame = '  File "C:\\ComfyUI\\execution.py", line 198, in get_output_data\n    return_values = _map_node_over_list(obj, input_data_all, obj.FUNCTION)';
    const { text } = await read(renderScreenshot(frame, consoleStyle('light', 1)).image, 'frame.png');
    expect(text).toContain('get_output_data');
    // Tesseract sometimes puts a space into a long identifier; the characters are what matter.
    expect(text.replace(/\s+/g, '')).toContain('_map_node_over_list(obj,input_data_all,obj.FUNCTION)');
  });

  it("reads a one-line cmd.exe console under its white title bar (each row's own background decides its polarity)", async () => {
    const line = 'Could not allocate tensor with 58982400 bytes. There is not enough GPU video memory available!';
    const { text } = await read(renderScreenshot(line, STYLES.windows).image, 'cmd.png');
    expect(text).toContain('not enough GPU video memory');
    expect(classify(text).category).toBe('oom_directml');
  });

  it('reads at least 90% of the corpus screenshots as their text reads (85% in every style), never confidently wrong', { timeout: 600_000 }, async () => {
    const step = Math.max(1, candidates.length / SAMPLES);
    const picked = Array.from({ length: Math.min(SAMPLES, candidates.length) }, (_, k) => candidates[Math.floor(k * step)]!);
    const results = await Promise.all(
      picked.map(async (s, k) => {
        const style = styles[k % styles.length]!;
        const shot = renderScreenshot(s.text, style);
        const ocr = await read(shot.image, `${s.id}.${style.jpegQuality ? 'jpg' : 'png'}`);
        const got = classify(ocr.text);
        const answered = answersScreenshot(ocr.confidence, got, ocr.otherText === undefined ? undefined : classify(ocr.otherText));
        return { id: s.id, style: style.name, label: s.category, shows: classify(shot.shown).category, got: got.category, confidence: got.confidence, answered, ms: ocr.ms };
      }),
    );
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const rate = (n: number, of: number) => `${n}/${of} (${Math.round((100 * n) / of)}%)`;
    const lines = styles.map((style) => {
      const mine = results.filter((r) => r.style === style.name);
      const misses = mine.filter((r) => r.got !== r.shows).map((r) => `${r.id} ${r.got}`);
      return `  ${style.name.padEnd(20)} as shown ${rate(mine.length - misses.length, mine.length)}, label ${rate(mine.filter((r) => r.got === r.label).length, mine.length)}, median ${(median(mine.map((r) => r.ms)) / 1000).toFixed(1)} s${misses.length ? `; misses: ${misses.join(', ')}` : ''}`;
    });
    const agree = results.filter((r) => r.got === r.shows).length;
    console.log(`OCR corpus: ${rate(agree, results.length)} read as shown, ${rate(results.filter((r) => r.got === r.label).length, results.length)} labelled right\n${lines.join('\n')}`);

    expect(agree / results.length).toBeGreaterThanOrEqual(0.9);
    for (const style of styles) {
      const mine = results.filter((r) => r.style === style.name);
      expect(mine.filter((r) => r.got === r.shows).length / mine.length, style.name).toBeGreaterThanOrEqual(0.85);
    }
    // A misreading the confidence gate lets through must not look sure of itself. Falling back to
    // a GPU OOM at an unknown stage only loses detail (the bot then asks which node was running).
    const wrong = (r: (typeof results)[number]) => r.got !== r.shows && !(r.got === 'oom_gpu_other' && r.shows.startsWith('oom_gpu_'));
    const confidentlyWrong = results.filter((r) => r.answered && wrong(r) && r.confidence >= 0.9);
    expect(confidentlyWrong.map((r) => `${r.id} (${r.style}): ${r.got} at ${r.confidence}, shows ${r.shows}`)).toEqual([]);
  });
});
