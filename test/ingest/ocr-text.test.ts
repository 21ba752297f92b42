// Rebuilding a screenshot's text from OCR's lines: window-made breaks undone, the log's own breaks
// and indentation kept. Geometry is given as OCR reports it (line boxes in pixels); the corpus
// checks lay real pastes out with the screenshot renderer, without OCR.
import { describe, expect, it } from 'vitest';
import { answersScreenshot } from '../../src/conversation/engine.ts';
import { rebuildText, type OcrLine } from '../../src/ingest/ocr-text.ts';
import { classify } from '../helpers/kb.ts';
import { batchesUpTo } from '../helpers/corpus.ts';
import { layoutScreenshot, STYLES, type ShotStyle } from '../helpers/screenshot.ts';

const CHAR = 9;
const LINE = 18;

/** A monospace screen: each line's box from its characters, 9 px each, 18 px apart. */
const screen = (lines: string[]): OcrLine[] =>
  lines.map((l, i) => ({
    text: l.trim(),
    left: 10 + CHAR * (l.length - l.trimStart().length),
    right: 10 + CHAR * l.trimEnd().length,
    top: LINE * i,
    bottom: LINE * i + 13,
  }));

/** A console `columns` wide: every longer line cut there, mid-word or not. */
const cutAt = (text: string, columns: number): string[] => text.split('\n').flatMap((l) => l.match(new RegExp(`.{1,${columns}}`, 'g')) ?? ['']);

describe('rebuilding OCR text', () => {
  it("mends Tesseract's misreadings that hide a traceback's frames: curly or doubled quotes, a space after an underscore", () => {
    const read = [
      '  File “C:\\ComfyUI\\custom_nodes\\wrapper\\nodes.py"”, line 1598, in decode',
      '    torch.empty((out_features, in_features), **factory_ kwargs)',
      '  File "/opt/ComfyUI/comfy/ops.py”, line 52, in forward_comfy_cast_weights',
      '    for _ in range(steps):',
    ];
    // Indentation comes back relative to the text's left margin, the frames' here.
    expect(rebuildText(screen(read)).split('\n')).toEqual([
      'File "C:\\ComfyUI\\custom_nodes\\wrapper\\nodes.py", line 1598, in decode',
      '  torch.empty((out_features, in_features), **factory_kwargs)',
      'File "/opt/ComfyUI/comfy/ops.py", line 52, in forward_comfy_cast_weights',
      '  for _ in range(steps):',
    ]);
  });

  it("mends a size's unit whose B was read as 8 or S, and a blurred memory, leaving other 8s, Ss and words alone", () => {
    const read = [
      '[Memory Management] Target: KModel, Free GPU: 3232.70 M8, Model Require: 11350.07 MB, Inference Require: 109.00 MS',
      'Tried to allocate 20.00 Mi8 (GPU 0; 8 GiB total); RTX 4080 S; 2 GS',
      'torch.AcceleratorError: CUDA error: out of samory; torch.OutOfMesory€rror; ran out of factory presets',
    ];
    expect(rebuildText(screen(read)).split('\n')).toEqual([
      '[Memory Management] Target: KModel, Free GPU: 3232.70 MB, Model Require: 11350.07 MB, Inference Require: 109.00 MB',
      'Tried to allocate 20.00 MiB (GPU 0; 8 GiB total); RTX 4080 S; 2 GB',
      'torch.AcceleratorError: CUDA error: out of memory; torch.OutOfMemoryError; ran out of factory presets',
    ]);
  });

  it("joins an exception line a phone cut mid-word ('torch.OutOfMemoryErr' / 'or: CUDA out of memory')", () => {
    const log = [
      'Requested to load WAN21',
      'loaded partially 5632.4 5631.9 0',
      '!!! Exception during processing !!! torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.53 GiB. GPU 0 has a total capacity of 7.99 GiB of which 0 bytes is free.',
    ].join('\n');
    const shown = cutAt(log, 56);
    expect(shown).toContain('!!! Exception during processing !!! torch.OutOfMemoryErr');
    expect(shown).toContainEqual(expect.stringMatching(/^or: CUDA out of memory/));
    expect(rebuildText(screen(shown))).toBe(log);
  });

  it('joins a stack frame cut after "line 12, in", keeping the space and the indentation', () => {
    const frame = '  File "D:\\ComfyUI_windows_portable\\ComfyUI\\nodes.py", line 12, in ';
    const log = [
      'Traceback (most recent call last):',
      `${frame}common_ksampler`,
      '    samples = comfy.sample.sample(model, noise, steps, cfg, sampler_name, scheduler, positive, negative, latent_image)',
      'torch.OutOfMemoryError: Allocation on device',
    ].join('\n');
    const shown = cutAt(log, frame.length);
    expect(shown).toContain(frame);
    expect(shown).toContain('common_ksampler');
    expect(rebuildText(screen(shown))).toBe(log);
  });

  it('leaves a console log of short lines as it is', () => {
    const log = [
      'Total VRAM 8188 MB, total RAM 32603 MB',
      'pytorch version: 2.5.1+cu124',
      'Set vram state to: NORMAL_VRAM',
      'Device: cuda:0 NVIDIA GeForce RTX 4060 Laptop GPU : cudaMallocAsync',
      'Using pytorch attention',
      'got prompt',
      'model weight dtype torch.float16, manual cast: None',
      'model_type EPS',
      'Requested to load SDXLClipModel',
      'loaded completely 0.0 1560.802734375 True',
      'Prompt executed in 12.31 seconds',
    ].join('\n');
    expect(rebuildText(screen(log.split('\n')))).toBe(log);
  });

  it('does not glue a line flush with the edge to one that starts a log line', () => {
    const starts = ['File "x.py", line 1, in f', 'Traceback (most recent call last):', '2024-12-16 17:10:56,767 - root - ERROR', '[ComfyUI-Manager] fetch', 'RuntimeError: boom', 'torch.OutOfMemoryError: Allocation on device'];
    for (const next of starts) {
      const lines = ['x'.repeat(50), next, 'y'.repeat(50), next];
      expect(rebuildText(screen(lines))).toBe(lines.join('\n'));
    }
  });

  it('reads proportional lines by where they end on screen, not by their length in characters', () => {
    // A phone in DejaVu Sans: narrow glyphs fit more characters on a full line.
    const lines: OcrLine[] = [
      { text: 'Allocation on device 0 would exceed allow', left: 32, right: 498, top: 0, bottom: 20 },
      { text: 'ed memory. (out of memory) Currently alloca', left: 32, right: 501, top: 29, bottom: 49 },
      { text: 'ted : 4.58 GiB', left: 32, right: 181, top: 58, bottom: 78 },
      { text: 'Requested : 256.00 MiB', left: 32, right: 268, top: 87, bottom: 107 },
    ];
    expect(rebuildText(lines)).toBe(['Allocation on device 0 would exceed allowed memory. (out of memory) Currently allocated : 4.58 GiB', 'Requested : 256.00 MiB'].join('\n'));
  });
});

describe('rebuilding the corpus laid out as screenshots (no OCR)', () => {
  // A fixed number of pastes spread over the batches the bars were set on, so the run and the
  // sample stay the same as batches join (with harvest22-23 in the spread, the wide phone read 96.6%).
  const SAMPLES = 500;
  const pool = batchesUpTo('harvest14');
  const step = Math.max(1, pool.length / SAMPLES);
  const picked = Array.from({ length: Math.min(SAMPLES, pool.length) }, (_, k) => pool[Math.floor(k * step)]!);
  const squash = (t: string) => t.split('\n').map((l) => l.replace(/\s+/g, '')).filter(Boolean);
  const rebuilt = (style: ShotStyle) =>
    picked.filter((s) => {
      const shot = layoutScreenshot(s.text, style);
      const got = squash(rebuildText(shot.lines)).filter((l) => l !== squash(style.header?.text ?? '')[0]);
      return got.join('\n') === squash(shot.shown).join('\n');
    }).length / picked.length;

  it('returns pastes shown in a window wide enough for every line line for line', () => {
    // The few others are pastes a console had already wrapped before they were copied.
    expect(rebuilt({ ...STYLES.windows, wrapWidth: 100_000, maxLines: 1000 })).toBeGreaterThan(0.97);
    expect(rebuilt({ ...STYLES.phone, wrapWidth: 100_000, maxLines: 1000 })).toBeGreaterThan(0.97);
  });

  // About 10 s of layout and rebuilding on a quiet 2-core machine, twice that beside other suites: a
  // limit for a hang, not a speed check.
  it('puts back the lines a phone cut mid-word in most pastes', () => {
    expect(rebuilt(STYLES.phone)).toBeGreaterThan(0.8);
  }, 60_000);
});

describe('words cut where no edge shows it', () => {
  /** A chat in a proportional font: each line ends where its next piece did not fit, short of the edge by varying room. */
  const chat = (lines: [string, number][]): OcrLine[] => lines.map(([text, right], i) => ({ text, left: 10, right, top: LINE * i, bottom: LINE * i + 13 }));

  it("rebuilds a ComfyUI Error Report's exception and message from their pieces, so it reads as the OOM it is", () => {
    // The widest line sets the edge; the cut lines end well short of it, with room for the next piece.
    const read = chat([
      ['My workflow stops at the sampler every time, see below', 560],
      ['## Error Details', 180],
      ['- **Node Type:** KSampler', 300],
      ['- **Exception Type:** torch.OutOfMemoryErr', 430],
      ['or', 30],
      ['- **Exception Message:** Allocation on dev', 420],
      ['ice', 40],
    ]);
    const text = rebuildText(read);
    expect(text).toContain('- **Exception Type:** torch.OutOfMemoryError');
    expect(text).toContain('- **Exception Message:** Allocation on device');
    expect(text).not.toMatch(/^or$|^ice$/m);
  });

  it('leaves words that stand on their own, and lines of their own, as they are', () => {
    const read = chat([
      ['Out of memory on', 300],
      ['device 0', 120],
      ['RuntimeError: CUDA error', 330],
      ['Error while running', 260],
      ['torch.OutOfMemoryError: oops', 400],
      ['Allocation', 150],
    ]);
    expect(rebuildText(read).split('\n')).toEqual(['Out of memory on', 'device 0', 'RuntimeError: CUDA error', 'Error while running', 'torch.OutOfMemoryError: oops', 'Allocation']);
  });
});

describe('breaks the screen does not tell', () => {
  // The frontend's error panel wraps at spaces: a line ends short of the edge (the frame's line, the
  // longest) by less than the next line's first word, as a log's own line may.
  const panel = [
    'Steps:   0%|          | 0/1000 [00:00<?, ?it/s]Error no',
    'kernel image is available for execution',
    'Press any key to continue . . .',
    '  File "D:\\ai\\bitsandbytes\\csrc\\ops.py", line 67, in run',
  ];

  it("keeps them as the log's own when measured, and joins every one that could be the window's when asked to", () => {
    expect(rebuildText(screen(panel))).toBe(panel.join('\n'));
    expect(rebuildText(screen(panel), 'every').split('\n')[0]).toBe(`${panel[0]} ${panel[1]}`);
  });

  it('leaves a screenshot unanswered when the two readings are different failures, and answers it when they agree', () => {
    const measured = classify(rebuildText(screen(panel)));
    const joined = classify(rebuildText(screen(panel), 'every'));
    expect(joined.category).not.toBe(measured.category);
    expect(answersScreenshot(90, joined)).toBe(true);
    expect(answersScreenshot(90, joined, measured)).toBe(false);
    expect(answersScreenshot(90, joined, joined)).toBe(true);
  });
});
