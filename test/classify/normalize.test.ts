import { describe, expect, it } from 'vitest';
import { LIMITS, MAY_FOLD, MAY_GLUE, MAY_WRAP, NEEDS_DECODING, foldOcrConfusions, lineMarks, normalize, stripWrapping } from '../../src/classify/normalize.ts';
import { seeded } from '../../src/learn/random.ts';

const lines = (s: string) => normalize(s).lines.filter((l) => l !== '');

describe('normalize', () => {
  it('turns CRLF and lone CR (progress bars) into lines', () => {
    expect(lines('a\r\nb\rc')).toEqual(['a', 'b', 'c']);
  });

  it('strips ANSI colours and zero-width characters', () => {
    expect(lines('\x1b[31mCUDA\u200b out of memory\x1b[0m')).toEqual(['CUDA out of memory']);
  });

  it('drops markdown fences and quote markers, and unwraps bold and inline code', () => {
    expect(lines('```python\n> torch.OutOfMemoryError: x\n```\n**KSampler**\n`Killed`')).toEqual([
      'torch.OutOfMemoryError: x',
      'KSampler',
      'Killed',
    ]);
  });

  it('unwraps inline code opened on an indented traceback line, keeping its indent', () => {
    expect(lines('`  File "module.py", line 804, in _apply\n    param_applied = fn(param)\ntorch.cuda.OutOfMemoryError: CUDA out of memory.`')).toEqual([
      '  File "module.py", line 804, in _apply',
      '    param_applied = fn(param)',
      'torch.cuda.OutOfMemoryError: CUDA out of memory.',
    ]);
  });

  it('decodes HTML entities a chat client may leave behind', () => {
    expect(lines('File &quot;a.py&quot;, line 1, in &lt;module&gt; &#39;x&#39; &#x41;')).toEqual([`File "a.py", line 1, in <module> 'x' A`]);
  });

  it('removes logger and timestamp prefixes, and splits timestamps glued mid-line', () => {
    expect(lines('2024-12-16 17:10:56,767 - root - ERROR - !!! Exception during processing !!! Allocation on device')).toEqual([
      '!!! Exception during processing !!! Allocation on device',
    ]);
    expect(lines('Moving block 39 to main device2025-02-26T13:48:55.390300 - got prompt')).toEqual(['Moving block 39 to main device', 'got prompt']);
    expect(lines('[ERROR] !!! Exception during processing !!! CUDA error: out of memory')[0]).toBe('!!! Exception during processing !!! CUDA error: out of memory');
  });

  it('folds OCR confusions by context, keeping version-like tokens', () => {
    expect(lines('torch.Out0fMemoryError: Tried to allocate l6.00 GiB')).toEqual(['torch.OutofMemoryError: Tried to allocate 16.00 GiB']);
    expect(lines('2.7.0+cu128 fp16 gfx1100 cuda:0')).toEqual(['2.7.0+cu128 fp16 gfx1100 cuda:0']);
    expect(lines('0utOfMemoryError 2O48 MB')).toEqual(['outOfMemoryError 2048 MB']);
    expect(lines('an 00M error occurs, 0OMED twice; 1000M and 00MB stay')).toEqual(['an OOM error occurs, OOMED twice; 1000M and 00MB stay']);
  });

  it('marks every line an OCR fold changes, that needs decoding, may hold a glued timestamp or may be wrapped, from its bytes alone', () => {
    // The characters of every fold, and what decoding turns into them (entities, escapes, full-width forms).
    const alphabet = ['a', 'Z', 'M', 'O', 'o', 'l', 'I', '0', '1', '7', '|', ' ', '.', '(', ':', '©', '&', '#48;', '\x1b[0m', '中', 'Ｏ', '０', '\r', '\n', '\r\n', 'GiB', 'OOM', ' - ', '-', '>', '`', '```', '*', '**', '[', '\t', 'ERROR:root:', 'INFO:root:', '[INFO] ', '[2025-09-05 22:47:42.035] ', '2025-01-01 10:00:00 ', 'Warn'];
    const random = seeded(11);
    for (let round = 0; round < 3000; round++) {
      const text = Array.from({ length: Math.floor(random() * 14) }, () => alphabet[Math.floor(random() * alphabet.length)]!).join('');
      const raw = text.split(/\r\n?|\n/);
      const marks = lineMarks(text);
      expect(marks.length).toBe(raw.length);
      raw.forEach((line, i) => {
        if (!(marks[i]! & MAY_FOLD)) expect(foldOcrConfusions(line)).toBe(line);
        if (!(marks[i]! & NEEDS_DECODING)) expect(line).toMatch(/^[\x00-\x1a\x1c-\x25\x27-\x7f]*$/);
        if (!(marks[i]! & (MAY_GLUE | NEEDS_DECODING))) expect(line).not.toContain(' - ');
        if (!(marks[i]! & (MAY_WRAP | NEEDS_DECODING))) expect(stripWrapping(line)).toBe(line);
      });
    }
  });

  it('turns full-width punctuation into ASCII (Chinese consoles)', () => {
    expect(lines('显存：12GB')).toEqual(['显存:12GB']);
  });

  it('keeps the head and the tail of an over-long paste and says so', () => {
    const many = Array.from({ length: LIMITS.maxLines * 3 }, (_, i) => `line ${i}`).join('\n');
    const n = normalize(many);
    expect(n.truncated).toBe(true);
    expect(n.lines.length).toBeLessThanOrEqual(LIMITS.maxLines);
    expect(n.lines[0]).toBe('line 0');
    expect(n.lines.at(-1)).toBe(`line ${LIMITS.maxLines * 3 - 1}`);
  });

  it('caps characters and line length', () => {
    const n = normalize('x'.repeat(LIMITS.maxChars * 2));
    expect(n.truncated).toBe(true);
    expect(Math.max(...n.lines.map((l) => l.length))).toBeLessThanOrEqual(LIMITS.maxLineLength);
    expect(n.originalChars).toBe(LIMITS.maxChars * 2);
  });
});
