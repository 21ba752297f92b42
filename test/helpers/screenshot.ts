// Renders a paste as a console screenshot, the way users post them, for OCR tests.
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const fonts = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
GlobalFonts.registerFromPath(join(fonts, 'DejaVuSansMono.ttf'), 'ShotMono');

export interface ShotStyle {
  theme: 'light' | 'dark';
  /** Display scaling: 1 = 100%, 1.5 = 150%. */
  scale: number;
}

export function renderScreenshot(text: string, style: ShotStyle, columns = 150): Buffer {
  const lines = text
    .split('\n')
    .flatMap((l) => (l.length ? (l.match(new RegExp(`.{1,${columns}}`, 'g')) ?? ['']) : ['']))
    .slice(-60);
  const size = 12 * style.scale;
  const lineHeight = Math.round(size * 1.45);
  const width = Math.ceil(columns * size * 0.62 + 24 * style.scale);
  const canvas = createCanvas(width, lines.length * lineHeight + 20 * style.scale);
  const g = canvas.getContext('2d');
  g.fillStyle = style.theme === 'dark' ? '#1e1e1e' : '#ffffff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = style.theme === 'dark' ? '#d4d4d4' : '#111111';
  g.font = `${size}px ShotMono`;
  lines.forEach((l, i) => g.fillText(l, 10 * style.scale, 10 * style.scale + (i + 0.8) * lineHeight));
  return canvas.toBuffer('image/png');
}
