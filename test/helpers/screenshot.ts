// Renders a paste as a screenshot the way users post them, for OCR tests. One renderer; the style
// says the font, colours, wrap width, chrome and file format, so a console, a Discord code block,
// a phone chat and ComfyUI's error dialog differ only in data. Deterministic: fonts come from the
// dejavu-fonts-ttf package, never from the system. DejaVu has no Han glyphs: Chinese falls back to
// Noto Sans SC (installed for the stats chart), as a console or browser falls back to a CJK font.
import { createCanvas, GlobalFonts, Image } from '@napi-rs/canvas';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const fonts = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
GlobalFonts.registerFromPath(join(fonts, 'DejaVuSansMono.ttf'), 'ShotMono');
GlobalFonts.registerFromPath(join(fonts, 'DejaVuSans.ttf'), 'ShotSans');
GlobalFonts.registerFromPath(join(fonts, 'DejaVuSans-Bold.ttf'), 'ShotSansBold');
// The font comes in slices by code point; one family over all of them.
const han = join(dirname(require.resolve('@fontsource-variable/noto-sans-sc/package.json')), 'files');
for (const f of readdirSync(han).filter((n) => n.endsWith('.woff2'))) GlobalFonts.registerFromPath(join(han, f), 'ShotHan');

export interface ShotStyle {
  /** How accuracy is reported. */
  name: string;
  font: 'mono' | 'sans';
  /** Text height in pixels. */
  size: number;
  /** Width of the text area in pixels; longer lines wrap. */
  wrapWidth: number;
  /** Consoles and WeChat-like chats cut anywhere; browsers cut at a space when the line has one. */
  wrap: 'char' | 'word';
  /** page: around the text; panel: behind it (a code block, a chat bubble, a dialog). */
  colours: { page: string; panel: string; text: string };
  /** Chrome above the text: a window's title bar, a chat's sender and clock. */
  header?: { text: string; background: string; colour: string };
  /** ComfyUI's error dialog: the node as a title, the exception, then the stack. */
  dialog?: boolean;
  /** A coloured frame around the panel (the frontend's red outline of a failed node and its panel). */
  outline?: string;
  /** Lines that fit on screen: the end of the paste is what shows. */
  maxLines: number;
  /** Saved as JPEG at this quality (chat apps recompress); PNG otherwise. */
  jpegQuality?: number;
}

const MONO_ADVANCE = 0.602; // DejaVu Sans Mono's advance width per pixel of text size
const columns = (n: number, size: number) => Math.ceil(n * size * MONO_ADVANCE) + 1;

/** The terminal the first OCR tests used: 150 columns, light or dark, at 100% or 150% display scale. */
export const consoleStyle = (theme: 'light' | 'dark', scale: number): ShotStyle => ({
  name: `console ${theme} ${scale * 100}%`,
  font: 'mono',
  size: 12 * scale,
  wrapWidth: columns(150, 12 * scale),
  wrap: 'char',
  colours: theme === 'dark' ? { page: '#1e1e1e', panel: '#1e1e1e', text: '#d4d4d4' } : { page: '#ffffff', panel: '#ffffff', text: '#111111' },
  maxLines: 60,
});

export const STYLES = {
  consoleLight: consoleStyle('light', 1),
  consoleDark: consoleStyle('dark', 1.5),
  /** Discord's dark theme: a code block under the sender's name, saved as JPEG. */
  discord: {
    name: 'discord dark jpeg',
    font: 'mono',
    size: 14,
    wrapWidth: 640,
    wrap: 'word',
    colours: { page: '#313338', panel: '#2b2d31', text: '#dbdee1' },
    header: { text: 'pixel_wizard   Today at 14:02', background: '#313338', colour: '#f2f3f5' },
    maxLines: 45,
    jpegQuality: 75,
  },
  /** A light chat on a phone: proportional font, about 45 characters a line cut mid-word, JPEG. */
  phone: {
    name: 'phone chat jpeg',
    font: 'sans',
    size: 20,
    wrapWidth: 470,
    wrap: 'char',
    colours: { page: '#ededed', panel: '#ffffff', text: '#191919' },
    header: { text: '9:41          ComfyUI help (212)', background: '#ededed', colour: '#191919' },
    maxLines: 45,
    jpegQuality: 72,
  },
  /** cmd.exe: light grey on black, 120 columns, the title bar above. */
  windows: {
    name: 'windows console',
    font: 'mono',
    size: 15,
    wrapWidth: columns(120, 15),
    wrap: 'char',
    colours: { page: '#0c0c0c', panel: '#0c0c0c', text: '#cccccc' },
    header: { text: 'C:\\Windows\\System32\\cmd.exe - python main.py', background: '#ffffff', colour: '#000000' },
    maxLines: 40,
  },
  /** ComfyUI's error dialog: a dark grey panel over the graph, sans text. */
  dialog: {
    name: 'comfyui dialog',
    font: 'sans',
    size: 14,
    wrapWidth: 760,
    wrap: 'word',
    colours: { page: '#202020', panel: '#353535', text: '#dddddd' },
    dialog: true,
    maxLines: 40,
  },
} satisfies Record<string, ShotStyle>;

/**
 * Styles the first OCR tests never used, for the screenshots people post first in help channels:
 * a dark phone chat (WhatsApp-like, a larger proportional font cut anywhere, heavier JPEG), the
 * current frontend's error panel in its light and dark themes with the red outline and the error
 * toast above it, a crop of a console that shows only the last lines of a long log, and Windows
 * PowerShell's blue window.
 */
export const NEW_STYLES = {
  phoneDark: {
    name: 'phone chat dark jpeg',
    font: 'sans',
    size: 23,
    wrapWidth: 430,
    wrap: 'char',
    colours: { page: '#0b141a', panel: '#005c4b', text: '#e9edef' },
    header: { text: '21:07     ComfyUI 交流群', background: '#1f2c34', colour: '#e9edef' },
    maxLines: 40,
    jpegQuality: 65,
  },
  frontendLight: {
    name: 'frontend panel light',
    font: 'sans',
    size: 14,
    wrapWidth: 720,
    wrap: 'word',
    colours: { page: '#f4f4f5', panel: '#ffffff', text: '#1f2937' },
    header: { text: 'Error   Prompt execution failed', background: '#fee2e2', colour: '#b91c1c' },
    dialog: true,
    outline: '#ef4444',
    maxLines: 40,
  },
  frontendDark: {
    name: 'frontend panel dark',
    font: 'sans',
    size: 14,
    wrapWidth: 720,
    wrap: 'word',
    colours: { page: '#18181b', panel: '#27272a', text: '#e4e4e7' },
    header: { text: 'Error   Prompt execution failed', background: '#7f1d1d', colour: '#fecaca' },
    dialog: true,
    outline: '#ef4444',
    maxLines: 40,
  },
  crop: { ...consoleStyle('dark', 1), name: 'console crop, last 12 lines', maxLines: 12 },
  /** Windows PowerShell's own window: light text on its navy blue, 120 columns, the title bar above. */
  powershell: {
    name: 'powershell blue',
    font: 'mono',
    size: 14,
    wrapWidth: columns(120, 14),
    wrap: 'char',
    colours: { page: '#012456', panel: '#012456', text: '#eeedf0' },
    header: { text: 'Windows PowerShell', background: '#ffffff', colour: '#000000' },
    maxLines: 40,
  },
} satisfies Record<string, ShotStyle>;

const NODE = /(?:executing|Node Type:\W*)\s*([A-Za-z][\w ()+-]*?)\s*:?\s*$/m;
const REPORTED = /Exception Type:\W*([\w.]+)[\s\S]*?Exception Message:\W*(.+)/;
const EXCEPTION = /^\s*[A-Za-z_][\w.]*(?:Error|Exception)\b.*$/gm;
const FRAME = /^\s*File "/;

/**
 * What ComfyUI's dialog shows of a paste: the node, the exception, then the stack frames with
 * their code lines. A paste with no exception line is shown whole under a generic title.
 */
function dialogLines(text: string): { title: string; lines: string[] } {
  const title = NODE.exec(text)?.[1] ?? 'Prompt execution failed';
  const reported = REPORTED.exec(text);
  const exception = reported ? `${reported[1]}: ${reported[2]!.trim()}` : [...text.matchAll(EXCEPTION)].at(-1)?.[0].trim();
  if (!exception) return { title, lines: text.split('\n') };
  const all = text.split('\n');
  const first = all.findIndex((l) => FRAME.test(l));
  const stack = first < 0 ? [] : all.slice(first).filter((l) => l.trim() && !exception.startsWith(l.trim()) && !/^\s*[\^~]+\s*$/.test(l) && !/^#|^```/.test(l.trim()));
  return { title, lines: [exception, ...stack.map((l) => l.trim())] };
}

/** Splits one line to fit `width`, the way the style's app wraps. */
function wrapLine(line: string, width: number, mode: ShotStyle['wrap'], measure: (s: string) => number): string[] {
  const out: string[] = [];
  let rest = line;
  while (measure(rest) > width) {
    // The longest start that fits, at least one character.
    let n = 1;
    for (let hi = rest.length - 1; n < hi; ) {
      const mid = Math.ceil((n + hi) / 2);
      if (measure(rest.slice(0, mid)) <= width) n = mid;
      else hi = mid - 1;
    }
    // A browser moves the word that does not fit to the next line; the space stays at the end.
    const space = mode === 'word' && rest[n] !== ' ' ? rest.lastIndexOf(' ', n - 1) : -1;
    const cut = space > 0 && rest.slice(0, space).trim() ? space + 1 : n;
    out.push(rest.slice(0, cut).trimEnd());
    rest = mode === 'word' ? rest.slice(cut).replace(/^ +/, '') : rest.slice(cut);
  }
  out.push(rest);
  return out;
}

export interface ShotLine {
  text: string;
  /** Where the text is drawn. */
  x: number;
  baseline: number;
  font: string;
  colour: string;
  /** The box of the line's ink, which is what OCR reports. */
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export interface Layout {
  width: number;
  height: number;
  /** Height of the chrome above the panel, and the panel's distance from the page's edges. */
  headerHeight: number;
  margin: number;
  /** Everything written on the screen: the chrome's text, the dialog's title, the paste. */
  lines: ShotLine[];
  /** The part of the paste on screen, line by line as it was pasted (with the dialog's title). */
  shown: string;
}

/** Text Noto Sans SC may have to draw; other text names DejaVu alone, since a fallback family makes measuring ten times slower. */
const WIDE = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;
const fontOf = (style: ShotStyle, text: string, bold = false, size = style.size) =>
  `${size}px ${bold ? 'ShotSansBold' : style.font === 'mono' ? 'ShotMono' : 'ShotSans'}${WIDE.test(text) ? ', ShotHan' : ''}`;

/** Where every line lands on the screen, without drawing it. */
export function layoutScreenshot(text: string, style: ShotStyle): Layout {
  const g = createCanvas(1, 1).getContext('2d');
  const measure = (s: string, bold = false, size = style.size) => {
    g.font = fontOf(style, s, bold, size);
    return g.measureText(s).width;
  };
  const { title, lines: source } = style.dialog ? dialogLines(text) : { title: undefined, lines: text.split('\n') };
  const pad = Math.round(style.size * 0.8);
  const margin = style.colours.panel === style.colours.page ? 0 : pad;
  const headerHeight = style.header ? Math.round(style.size * 2.4) : 0;
  const line = (t: string, x: number, baseline: number, colour: string, bold = false, size = style.size): ShotLine => {
    const left = x + measure(t.slice(0, t.length - t.trimStart().length), bold, size);
    return { text: t, x, baseline, font: fontOf(style, t, bold, size), colour, left, right: x + measure(t.trimEnd(), bold, size), top: baseline - 0.75 * size, bottom: baseline + 0.2 * size };
  };
  const lines: ShotLine[] = [];
  if (style.header) lines.push(line(style.header.text, pad, headerHeight * 0.65, style.header.colour, true, Math.round(style.size * 0.9)));
  const x = margin + pad;
  let y = headerHeight + margin + pad;
  if (title) {
    lines.push(line(title, x, y + style.size * 1.45, style.colours.text, true, Math.round(style.size * 1.3)));
    y += Math.round(style.size * 2.2);
  }
  // Whole pasted lines from the end, as many as fit on screen.
  const wrapped = source.map((l) => wrapLine(l.replace(/\t/g, '    '), style.wrapWidth, style.wrap, measure));
  let first = wrapped.length;
  for (let n = 0; first > 0 && n + wrapped[first - 1]!.length <= style.maxLines; ) n += wrapped[--first]!.length;
  first = Math.min(first, wrapped.length - 1);
  const lineHeight = Math.round(style.size * 1.45);
  for (const l of wrapped.slice(first).flat()) {
    lines.push(line(l, x, y + 0.8 * lineHeight, style.colours.text));
    y += lineHeight;
  }
  return {
    width: style.wrapWidth + 2 * x,
    height: y + pad + margin,
    headerHeight,
    margin,
    lines,
    shown: [...(title ? [title] : []), ...source.slice(first)].join('\n'),
  };
}

export interface Shot extends Layout {
  image: Buffer;
}

export function renderScreenshot(text: string, style: ShotStyle): Shot {
  const layout = layoutScreenshot(text, style);
  const { width, height, headerHeight, margin } = layout;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = style.header?.background ?? style.colours.page;
  g.fillRect(0, 0, width, height);
  g.fillStyle = style.colours.page;
  g.fillRect(0, headerHeight, width, height - headerHeight);
  g.fillStyle = style.colours.panel;
  g.beginPath();
  g.roundRect(margin, headerHeight + margin, width - 2 * margin, height - headerHeight - 2 * margin, margin ? 8 : 0);
  g.fill();
  if (style.outline) {
    g.strokeStyle = style.outline;
    g.lineWidth = 3;
    g.stroke();
  }
  for (const l of layout.lines) {
    g.font = l.font;
    g.fillStyle = l.colour;
    g.fillText(l.text, l.x, l.baseline);
  }
  const image = style.jpegQuality ? canvas.toBuffer('image/jpeg', style.jpegQuality) : canvas.toBuffer('image/png');
  return { ...layout, image };
}

/** How a phone photographs a monitor: the angle, the light, the focus and the sensor. */
export interface PhotoStyle {
  name: string;
  /** Degrees the phone is turned against the screen's lines. */
  tilt: number;
  /** Horizontal shear from holding the phone off-axis (a keystone, to first order). */
  shear: number;
  /** Pixels of blur: a soft focus or a shaking hand. */
  blur: number;
  /** How much darker one corner is than the opposite one (0 to 1). */
  shade: number;
  /** Standard deviation of the sensor's noise, in grey levels. */
  noise: number;
  jpegQuality: number;
}

export const PHOTO: PhotoStyle = { name: 'phone photo of a monitor', tilt: 2.5, shear: 0.04, blur: 0.8, shade: 0.45, noise: 9, jpegQuality: 70 };

/** A deterministic generator (mulberry32), so a photo is the same on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A screenshot photographed off a monitor: turned by up to `tilt` either way and sheared, blurred,
 * lit unevenly from a corner, with sensor noise, saved as JPEG. `seed` varies the angle and the light.
 */
export function photographScreen(text: string, screen: ShotStyle, photo: PhotoStyle, seed: number): Shot {
  const shot = renderScreenshot(text, screen);
  const rand = random(seed);
  const { width, height } = shot;
  const pad = Math.round(0.06 * Math.max(width, height));
  const canvas = createCanvas(width + 2 * pad, height + 2 * pad);
  const g = canvas.getContext('2d');
  // The room around the monitor: a dark bezel.
  g.fillStyle = '#151515';
  g.fillRect(0, 0, canvas.width, canvas.height);
  const angle = ((rand() * 2 - 1) * photo.tilt * Math.PI) / 180;
  const shear = (rand() * 2 - 1) * photo.shear;
  g.translate(canvas.width / 2, canvas.height / 2);
  g.rotate(angle);
  g.transform(1, 0, shear, 1, 0, 0);
  g.filter = `blur(${photo.blur}px)`;
  const image = new Image();
  image.src = shot.image;
  g.drawImage(image, -width / 2, -height / 2);
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.filter = 'none';
  // Uneven light: darker towards one corner.
  const corner = Math.floor(rand() * 4);
  const [x0, y0] = [corner & 1 ? canvas.width : 0, corner & 2 ? canvas.height : 0];
  const light = g.createLinearGradient(x0, y0, canvas.width - x0, canvas.height - y0);
  light.addColorStop(0, `rgba(0,0,0,${photo.shade})`);
  light.addColorStop(1, 'rgba(0,0,0,0)');
  g.fillStyle = light;
  g.fillRect(0, 0, canvas.width, canvas.height);
  const pixels = g.getImageData(0, 0, canvas.width, canvas.height);
  const d = pixels.data;
  for (let i = 0; i < d.length; i += 4) {
    // Box-Muller: one normal sample a pixel, the same on each channel (luminance noise).
    const n = Math.sqrt(-2 * Math.log(rand() || 1e-9)) * Math.cos(2 * Math.PI * rand()) * photo.noise;
    d[i] = d[i]! + n;
    d[i + 1] = d[i + 1]! + n;
    d[i + 2] = d[i + 2]! + n;
  }
  g.putImageData(pixels, 0, 0);
  return { ...shot, width: canvas.width, height: canvas.height, image: canvas.toBuffer('image/jpeg', photo.jpegQuality) };
}
