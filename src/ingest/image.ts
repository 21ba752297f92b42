// Screenshots before OCR: their size read from the header (so a decompression bomb is refused
// before it is decoded), then greyscale with dark themes inverted, the text brought to the height
// Tesseract reads best, and the contrast stretched so thin strokes (underscores, dots) survive.
// Photos of a screen (told by their noisy background) are also turned level, lit evenly and
// despeckled.
// The lines of text are found on the result, each marked when it holds Chinese, so OCR can use the
// Chinese data only there (see ocr.ts).
import { createCanvas, loadImage, type Canvas } from '@napi-rs/canvas';
import { IMAGE_LIMITS } from './limits.ts';


/**
 * Height in pixels of a line of text (ascenders to descenders) after scaling. Measured on renders
 * of consoles, Discord, a phone chat and ComfyUI's dialog: at 20 px underscores and dots are lost,
 * above 30 px only the time grows. Console text is often 11-13 px, a phone's 30-50 px.
 */
const TEXT_HEIGHT = 26;
const SCALE = { min: 0.5, max: 3 };

export interface ImageSize {
  format: 'png' | 'jpeg' | 'webp';
  width: number;
  height: number;
}

/** Width and height from the file header, without decoding; undefined when not a PNG/JPEG/WebP. */
export function imageSize(buf: Buffer): ImageSize | undefined {
  if (buf.length > 24 && buf.readUInt32BE(0) === 0x89504e47) return { format: 'png', width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
  if (buf.length > 30 && buf.toString('ascii', 0, 4) === 'RIFF' && buf.toString('ascii', 8, 12) === 'WEBP') {
    const chunk = buf.toString('ascii', 12, 16);
    if (chunk === 'VP8X') return { format: 'webp', width: 1 + buf.readUIntLE(24, 3), height: 1 + buf.readUIntLE(27, 3) };
    if (chunk === 'VP8L') {
      const bits = buf.readUInt32LE(21);
      return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8 ') return { format: 'webp', width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff };
    return undefined;
  }
  if (buf[0] === 0xff && buf[1] === 0xd8) {
    // Walk the JPEG segments to the first start-of-frame marker.
    let i = 2;
    while (i + 9 < buf.length) {
      if (buf[i] !== 0xff) return undefined;
      const marker = buf[i + 1]!;
      const len = buf.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { format: 'jpeg', width: buf.readUInt16BE(i + 7), height: buf.readUInt16BE(i + 5) };
      }
      i += 2 + len;
    }
  }
  return undefined;
}

/** A line of text on the prepared image (rows from top to bottom), and whether it shows Han script. */
export interface TextBand {
  top: number;
  bottom: number;
  han: boolean;
}

export type Prepared =
  | {
      ok: true;
      /** What OCR reads: the page's grey levels, a byte a pixel, row after row; its lines of text in `bands`. */
      grey: Uint8Array;
      page: { width: number; height: number };
      bands: TextBand[];
      /** The file as it came, and how it was changed. */
      size: ImageSize;
      scale: number;
      inverted: boolean;
      textHeight?: number;
    }
  | { ok: false; reason: 'too_big' | 'too_many_pixels' | 'not_an_image' };

export async function prepareForOcr(buf: Buffer): Promise<Prepared> {
  if (buf.length > IMAGE_LIMITS.maxBytes) return { ok: false, reason: 'too_big' };
  const size = imageSize(buf);
  if (!size || !size.width || !size.height) return { ok: false, reason: 'not_an_image' };
  if (size.width * size.height > IMAGE_LIMITS.maxPixels) return { ok: false, reason: 'too_many_pixels' };
  let img;
  try {
    img = await loadImage(buf);
  } catch {
    return { ok: false, reason: 'not_an_image' };
  }
  const { width, height } = size;
  const native = createCanvas(width, height);
  const g = native.getContext('2d');
  g.drawImage(img, 0, 0);
  const pixels = g.getImageData(0, 0, width, height);
  const inverted = toGrey(pixels.data, width);
  const ink = otsu(pixels.data);
  eraseVerticalRules(pixels.data, width, height, ink);
  g.putImageData(pixels, 0, 0);
  // A photo of a screen: its lines may run at an angle, its light is uneven and its sensor noisy.
  // Turned level and lit evenly, it reads as a screenshot does; a screenshot stays as it is.
  const photo = backgroundShare(pixels.data) < PHOTO_BACKGROUND_SHARE;
  if (photo) {
    const skew = skewOf(pixels.data, width, height, ink.threshold);
    if (Math.abs(skew) >= MIN_SKEW_DEG) {
      g.save();
      g.fillStyle = '#ffffff';
      g.fillRect(0, 0, width, height);
      g.translate(width / 2, height / 2);
      g.rotate((-skew * Math.PI) / 180);
      const copy = createCanvas(width, height);
      copy.getContext('2d').putImageData(pixels, 0, 0);
      g.drawImage(copy, -width / 2, -height / 2);
      g.restore();
    }
    flattenLight(native);
    pixels.data.set(g.getImageData(0, 0, width, height).data);
  }
  const textHeight = measureTextHeight(pixels.data, width, height);
  const fit = textHeight ? Math.min(SCALE.max, Math.max(SCALE.min, TEXT_HEIGHT / textHeight)) : 1;
  const scale = Math.min(fit, IMAGE_LIMITS.maxWidth / width, Math.sqrt(IMAGE_LIMITS.maxOcrPixels / (width * height)));
  const w = Math.round(width * scale);
  const h = Math.round(height * scale);
  const canvas = createCanvas(w, h);
  const out = canvas.getContext('2d');
  out.imageSmoothingQuality = 'high';
  out.drawImage(native, 0, 0, w, h);
  const scaled = out.getImageData(0, 0, w, h);
  // The sensor's speckle, at the size OCR reads: left in, Tesseract takes it for letters.
  if (photo) median3(scaled.data, w, h);
  stretchContrast(scaled.data);
  const bands = textBands(scaled.data, w, h);
  // Raw grey levels rather than a PNG: nothing to encode here or to decode in Tesseract, and a
  // piece of the page is a run of rows (see ocr.ts).
  const grey = new Uint8Array(w * h);
  for (let i = 0; i < grey.length; i++) grey[i] = scaled.data[i * 4]!;
  return { ok: true, grey, page: { width: w, height: h }, bands, size, scale, inverted, ...(textHeight ? { textHeight } : {}) };
}

/**
 * RGBA to grey in place, each row inverted where its background is dark: Tesseract prefers dark
 * text on light, and one screenshot may hold both (cmd.exe's white title bar over its black
 * console). A row shows its background when one grey (in steps of 8, for JPEG's noise) covers most
 * of it; a row of dense text or a progress bar's blocks does not, and like every row it goes with
 * the rows around it that do (within ROW_VOTE), or with the whole image's mean where none does.
 * Says whether most rows were inverted (a dark theme).
 */
function toGrey(d: Uint8ClampedArray, width: number): boolean {
  const rowBytes = width * 4;
  const rows = d.length / rowBytes;
  const hist = new Uint32Array(32);
  /** How many rows above each row show a dark background, and a light one. */
  const darkBefore = new Uint32Array(rows + 1);
  const lightBefore = new Uint32Array(rows + 1);
  let sum = 0;
  for (let y = 0; y < rows; y++) {
    hist.fill(0);
    for (let i = y * rowBytes; i < (y + 1) * rowBytes; i += 4) {
      const grey = 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
      d[i] = d[i + 1] = d[i + 2] = grey;
      sum += grey;
      hist[d[i]! >> 3]!++;
    }
    let background = 0;
    for (let v = 1; v < 32; v++) if (hist[v]! > hist[background]!) background = v;
    const shows = hist[background]! >= BACKGROUND_SHARE * width;
    const dark = background * 8 + 4 < 110;
    darkBefore[y + 1] = darkBefore[y]! + (shows && dark ? 1 : 0);
    lightBefore[y + 1] = lightBefore[y]! + (shows && !dark ? 1 : 0);
  }
  const darkImage = sum / (rows * width) < 110;
  let inverted = 0;
  for (let y = 0; y < rows; y++) {
    const from = Math.max(0, y - ROW_VOTE);
    const to = Math.min(rows, y + ROW_VOTE + 1);
    const dark = darkBefore[to]! - darkBefore[from]!;
    const light = lightBefore[to]! - lightBefore[from]!;
    if (!(dark + light ? dark > light : darkImage)) continue;
    inverted++;
    for (let i = y * rowBytes; i < (y + 1) * rowBytes; i += 4) d[i] = d[i + 1] = d[i + 2] = 255 - d[i]!;
  }
  return inverted > rows / 2;
}

/**
 * A panel's frame, a window's border, a scroll bar or a chat bubble's edge: ink running down past
 * any letter's height. Left in, it puts ink in every row, so the page reads as one tall line (the
 * frontend's red outline around its error panel took OCR from 93% to 36% confidence). A run is a
 * rule when it is RULE_RUNS times longer than nine in ten of the page's vertical ink runs (the
 * letters' strokes), and at least RULE_MIN px; it turns to paper.
 */
function eraseVerticalRules(d: Uint8ClampedArray, width: number, height: number, { threshold, paper }: { threshold: number; paper: number }): void {
  /** Calls `run` with each vertical run of ink: its column and its rows [top, bottom). */
  const eachRun = (run: (x: number, top: number, bottom: number) => void) => {
    for (let x = 0; x < width; x++) {
      let top = -1;
      for (let y = 0; y <= height; y++) {
        const ink = y < height && d[(y * width + x) * 4]! <= threshold;
        if (ink && top < 0) top = y;
        else if (!ink && top >= 0) {
          run(x, top, y);
          top = -1;
        }
      }
    }
  };
  const lengths = new Uint32Array(height + 1);
  let runs = 0;
  eachRun((_, top, bottom) => (lengths[bottom - top]!++, runs++));
  if (!runs) return;
  let typical = 0;
  for (let seen = 0; seen <= Math.floor(runs * 0.9); ) seen += lengths[++typical]!;
  const longest = Math.max(RULE_MIN, RULE_RUNS * typical);
  if (height <= longest) return;
  eachRun((x, top, bottom) => {
    if (bottom - top <= longest) return;
    for (let y = top; y < bottom; y++) d[(y * width + x) * 4] = d[(y * width + x) * 4 + 1] = d[(y * width + x) * 4 + 2] = paper;
  });
}

const RULE_RUNS = 3;
const RULE_MIN = 24;

/**
 * The angle in degrees the text's lines run at, from the projection of the ink onto rows turned by
 * each candidate angle: level lines give the sharpest peaks (the largest sum of squared row counts).
 * Read on a grid of at most SKEW_SAMPLE_PX columns, and as many rows to the same step.
 */
function skewOf(d: Uint8ClampedArray, width: number, height: number, threshold: number): number {
  const step = Math.max(1, Math.ceil(width / SKEW_SAMPLE_PX));
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y += step) for (let x = 0; x < width; x += step) if (d[(y * width + x) * 4]! <= threshold) (xs.push(x), ys.push(y));
  if (xs.length < 200) return 0;
  let best = 0;
  let bestScore = -1;
  const rows = new Float64Array(Math.ceil((height + width) / step) + 2);
  for (let deg = -MAX_SKEW_DEG; deg <= MAX_SKEW_DEG + 1e-9; deg += SKEW_STEP_DEG) {
    const t = Math.tan((deg * Math.PI) / 180);
    rows.fill(0);
    const offset = width * Math.abs(t);
    for (let i = 0; i < xs.length; i++) rows[Math.round((ys[i]! - xs[i]! * t + offset) / step)]! += 1;
    let score = 0;
    for (const r of rows) score += r * r;
    if (score > bestScore) (bestScore = score), (best = deg);
  }
  return best;
}

/**
 * The share of a page covered by its most common grey. A screenshot's background is one grey over
 * much of it (0.36 to 0.95 on renders of eleven styles); a photo's sensor noise spreads every grey
 * (about 0.04 on photos of a monitor).
 */
function backgroundShare(d: Uint8ClampedArray): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < d.length; i += 4) hist[d[i]!]!++;
  return Math.max(...hist) / (d.length / 4);
}

const PHOTO_BACKGROUND_SHARE = 0.15;

const MAX_SKEW_DEG = 8;
const SKEW_STEP_DEG = 0.25;
/** Below this the text is level: photos taken square on. */
const MIN_SKEW_DEG = 0.5;
const SKEW_SAMPLE_PX = 700;

/**
 * Uneven light out of a photo: each pixel divided by the paper around it (the page blurred far
 * beyond a letter's size), so the paper is white everywhere and the ink dark against it.
 */
function flattenLight(page: Canvas): void {
  const { width, height } = page;
  const around = createCanvas(width, height);
  const a = around.getContext('2d');
  a.filter = `blur(${Math.max(8, Math.round(Math.max(width, height) / 40))}px)`;
  a.drawImage(page, 0, 0);
  const bg = a.getImageData(0, 0, width, height).data;
  const g = page.getContext('2d');
  const pixels = g.getImageData(0, 0, width, height);
  const d = pixels.data;
  for (let i = 0; i < d.length; i += 4) d[i] = d[i + 1] = d[i + 2] = Math.min(255, (d[i]! * 255) / Math.max(1, bg[i]!));
  g.putImageData(pixels, 0, 0);
}

/**
 * Each pixel the median of the 3x3 around it (grey in channel 0): specks go, strokes two pixels
 * wide stay. Edges keep their own value.
 */
function median3(d: Uint8ClampedArray, width: number, height: number): void {
  const src = new Uint8Array(width * height);
  for (let i = 0; i < src.length; i++) src[i] = d[i * 4]!;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      let p0 = src[i - width - 1]!, p1 = src[i - width]!, p2 = src[i - width + 1]!;
      let p3 = src[i - 1]!, p4 = src[i]!, p5 = src[i + 1]!;
      let p6 = src[i + width - 1]!, p7 = src[i + width]!, p8 = src[i + width + 1]!;
      let t: number;
      // The median of nine by 19 exchanges (Paeth's network, as in Devillard's "Fast median search").
      if (p1 > p2) (t = p1), (p1 = p2), (p2 = t);
      if (p4 > p5) (t = p4), (p4 = p5), (p5 = t);
      if (p7 > p8) (t = p7), (p7 = p8), (p8 = t);
      if (p0 > p1) (t = p0), (p0 = p1), (p1 = t);
      if (p3 > p4) (t = p3), (p3 = p4), (p4 = t);
      if (p6 > p7) (t = p6), (p6 = p7), (p7 = t);
      if (p1 > p2) (t = p1), (p1 = p2), (p2 = t);
      if (p4 > p5) (t = p4), (p4 = p5), (p5 = t);
      if (p7 > p8) (t = p7), (p7 = p8), (p8 = t);
      if (p0 > p3) (t = p0), (p0 = p3), (p3 = t);
      if (p5 > p8) (t = p5), (p5 = p8), (p8 = t);
      if (p4 > p7) (t = p4), (p4 = p7), (p7 = t);
      if (p3 > p6) (t = p3), (p3 = p6), (p6 = t);
      if (p1 > p4) (t = p1), (p1 = p4), (p4 = t);
      if (p2 > p5) (t = p2), (p2 = p5), (p5 = t);
      if (p4 > p7) (t = p4), (p4 = p7), (p7 = t);
      if (p4 > p2) (t = p4), (p4 = p2), (p2 = t);
      if (p6 > p4) (t = p6), (p6 = p4), (p4 = t);
      if (p4 > p2) (t = p4), (p4 = p2), (p2 = t);
      d[i * 4] = p4;
    }
  }
}

/** Rows either side that vote on a row's polarity: more than half a line of console text at 1x. */
const ROW_VOTE = 12;
/** The share of a row one grey must cover to be its background (a progress bar's row: about half). */
const BACKGROUND_SHARE = 0.7;

/** Otsu's threshold of a grey RGBA image, with the mean grey of the ink below it and the paper above. */
function otsu(d: Uint8ClampedArray): { threshold: number; ink: number; paper: number } {
  const hist = new Array<number>(256).fill(0);
  for (let i = 0; i < d.length; i += 4) hist[d[i]!]!++;
  const total = d.length / 4;
  let sum = 0;
  for (let v = 0; v < 256; v++) sum += v * hist[v]!;
  let best = -1;
  let found = { threshold: 127, ink: 0, paper: 255 };
  let below = 0;
  let belowSum = 0;
  for (let v = 0; v < 255; v++) {
    below += hist[v]!;
    belowSum += v * hist[v]!;
    if (!below || below === total) continue;
    const ink = belowSum / below;
    const paper = (sum - belowSum) / (total - below);
    const between = below * (total - below) * (paper - ink) ** 2;
    if (between > best) {
      best = between;
      found = { threshold: v, ink, paper };
    }
  }
  return found;
}

/** Runs of rows holding ink, darker than `threshold`; thinner than 4 rows they are rules, underlines and noise, not text. */
function inkBands(d: Uint8ClampedArray, width: number, height: number, threshold: number): { top: number; bottom: number }[] {
  const bands: { top: number; bottom: number }[] = [];
  let top = -1;
  for (let y = 0; y <= height; y++) {
    let ink = false;
    for (let x = 0, i = y * width * 4; y < height && x < width && !ink; x++, i += 4) ink = d[i]! <= threshold;
    if (ink && top < 0) top = y;
    else if (!ink && top >= 0) {
      if (y - top >= 4) bands.push({ top, bottom: y });
      top = -1;
    }
  }
  return bands;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** The median height of the bands of rows holding ink: the height of a line of text. */
function measureTextHeight(d: Uint8ClampedArray, width: number, height: number): number | undefined {
  return median(inkBands(d, width, height, otsu(d).threshold).map((b) => b.bottom - b.top));
}

/**
 * Han script is told from Latin by its strokes: a column through a line of Latin text crosses at
 * most three (e, g, B, 8), through many Han characters four to eight (显, 量, 误). Measured on
 * 313 rendered consoles, chats and dialogs after preparation: JPEG blocks and bold titles gave
 * Latin lines up to six columns of four strokes or four of five, while a Chinese sentence gives
 * dozens. So one line must be sure for the image to count as Chinese; then every line with a few
 * such columns does (a line holding one or two Han characters among Latin text).
 */
const HAN = {
  stroke: { some: 4, many: 5 },
  maybe: { some: 4, many: 2 },
  sure: { some: 8, many: 5 },
};

/**
 * The lines of text of a prepared image (ink black on white), each marked when it shows Han
 * script. Bands much taller than a line are left unmarked: a title bar or a selection is a block
 * of ink whose letters are holes, and holes would count as strokes.
 */
export function textBands(d: Uint8ClampedArray, width: number, height: number): TextBand[] {
  const bands = inkBands(d, width, height, 128);
  const line = median(bands.map((b) => b.bottom - b.top)) ?? 0;
  const counted = bands.map(({ top, bottom }) => {
    let some = 0;
    let many = 0;
    if (bottom - top <= 1.6 * line) {
      for (let x = 0; x < width; x++) {
        let strokes = 0;
        let inInk = false;
        for (let i = (top * width + x) * 4, end = (bottom * width + x) * 4; i < end; i += width * 4) {
          const ink = d[i]! < 128;
          if (ink && !inInk) strokes++;
          inInk = ink;
        }
        if (strokes >= HAN.stroke.some) some++;
        if (strokes >= HAN.stroke.many) many++;
      }
    }
    return { top, bottom, some, many };
  });
  const reaches = (b: { some: number; many: number }, t: { some: number; many: number }) => b.some >= t.some || b.many >= t.many;
  const chinese = counted.some((b) => reaches(b, HAN.sure));
  return counted.map(({ top, bottom, some, many }) => ({ top, bottom, han: chinese && reaches({ some, many }, HAN.maybe) }));
}

/**
 * Ink to black and paper to white, darkening the greys between (gamma 2): antialiased thin
 * strokes fade to near paper when text is small, and Tesseract's own threshold then drops them.
 */
function stretchContrast(d: Uint8ClampedArray): void {
  const { ink, paper } = otsu(d);
  if (paper - ink < 1) return;
  for (let i = 0; i < d.length; i += 4) {
    const n = Math.min(1, Math.max(0, (d[i]! - ink) / (paper - ink)));
    d[i] = d[i + 1] = d[i + 2] = 255 * n * n;
  }
}
