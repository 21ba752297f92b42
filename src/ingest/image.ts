// Screenshots before OCR: their size read from the header (so a decompression bomb is refused
// before it is decoded), then greyscale, dark themes inverted and small text upscaled, which is
// what Tesseract reads best.
import { createCanvas, loadImage } from '@napi-rs/canvas';

export const IMAGE_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 40_000_000,
  /** Narrower screenshots are upscaled: console text is often 11–13 px high. */
  upscaleBelowWidth: 1600,
  maxWidth: 4000,
};

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

export type Prepared = { ok: true; png: Buffer; size: ImageSize; scale: number; inverted: boolean } | { ok: false; reason: 'too_big' | 'too_many_pixels' | 'not_an_image' };

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
  const scale = size.width < IMAGE_LIMITS.upscaleBelowWidth ? Math.min(2, IMAGE_LIMITS.maxWidth / size.width) : 1;
  const w = Math.round(size.width * scale);
  const h = Math.round(size.height * scale);
  const canvas = createCanvas(w, h);
  const g = canvas.getContext('2d');
  g.imageSmoothingQuality = 'high';
  g.drawImage(img, 0, 0, w, h);
  const pixels = g.getImageData(0, 0, w, h);
  const d = pixels.data;
  let sum = 0;
  for (let i = 0; i < d.length; i += 4) {
    const y = 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
    d[i] = d[i + 1] = d[i + 2] = y;
    sum += y;
  }
  // ComfyUI's console and its error dialog are dark: Tesseract prefers dark text on light.
  const inverted = sum / (d.length / 4) < 110;
  if (inverted) for (let i = 0; i < d.length; i += 4) d[i] = d[i + 1] = d[i + 2] = 255 - d[i]!;
  g.putImageData(pixels, 0, 0);
  return { ok: true, png: canvas.toBuffer('image/png'), size, scale, inverted };
}
