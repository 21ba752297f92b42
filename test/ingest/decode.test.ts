import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { decodeText } from '../../src/ingest/decode.ts';
import { imageSize, prepareForOcr } from '../../src/ingest/image.ts';
import { IMAGE_LIMITS } from '../../src/ingest/limits.ts';
import { consoleStyle, renderScreenshot, STYLES } from '../helpers/screenshot.ts';

const log = 'torch.OutOfMemoryError: 页面文件太小 (os error 1455)';

describe('decoding attached logs', () => {
  it('reads UTF-8, with or without a BOM', () => {
    expect(decodeText(Buffer.from(log))).toMatchObject({ ok: true, text: log, encoding: 'utf-8' });
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(log)]))).toMatchObject({ ok: true, text: log });
  });

  it("reads UTF-16 as PowerShell's redirect writes it, with and without a BOM", () => {
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(log, 'utf16le')]))).toMatchObject({ ok: true, text: log, encoding: 'utf-16le' });
    expect(decodeText(Buffer.from('CUDA out of memory. Tried to allocate 2.00 GiB', 'utf16le'))).toMatchObject({ ok: true, encoding: 'utf-16le' });
  });

  it('reads GBK from a Chinese Windows console', () => {
    // "页面文件太小" in code page 936
    const gbk = Buffer.concat([Buffer.from('OSError: '), Buffer.from([0xd2, 0xb3, 0xc3, 0xe6, 0xce, 0xc4, 0xbc, 0xfe, 0xcc, 0xab, 0xd0, 0xa1]), Buffer.from(' (os error 1455)')]);
    expect(decodeText(gbk)).toMatchObject({ ok: true, text: 'OSError: 页面文件太小 (os error 1455)', encoding: 'gbk' });
  });

  it('refuses binary data', () => {
    expect(decodeText(Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 0, 0, 8, 0]))).toEqual({ ok: false, reason: 'binary' });
  });

  it('refuses a binary shaped like UTF-16 (a byte order mark, or a NUL in every other byte)', () => {
    let seed = 7;
    const noise = (n: number) => Array.from({ length: n }, () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff);
    const shaped = Buffer.from(noise(4000).flatMap((b) => [b, 0]));
    expect(decodeText(shaped)).toEqual({ ok: false, reason: 'binary' });
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), shaped]))).toEqual({ ok: false, reason: 'binary' });
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('torch.OutOfMemoryError: 显存不足\r\n', 'utf16le')]))).toMatchObject({ ok: true });
  });
});

describe('screenshots before OCR', () => {
  it('reads the size from PNG headers and refuses non-images and pixel bombs before decoding', async () => {
    const png = renderScreenshot('CUDA out of memory', consoleStyle('dark', 1)).image;
    expect(imageSize(png)).toMatchObject({ format: 'png' });
    expect(await prepareForOcr(Buffer.from('not an image at all'))).toEqual({ ok: false, reason: 'not_an_image' });
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(20_000, 16);
    bomb.writeUInt32BE(20_000, 20);
    expect(await prepareForOcr(bomb)).toEqual({ ok: false, reason: 'too_many_pixels' });
  });

  it('gives Tesseract no more pixels than its budget: a tall screenshot is scaled down, never up', async () => {
    // 1000 x 39000 (under the 40 MP limit) of 12 px console text, which alone would be upscaled twofold.
    const canvas = createCanvas(1000, 39_000);
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 1000, 39_000);
    g.fillStyle = '#111';
    g.font = '12px sans-serif';
    for (let y = 20; y < 39_000; y += 400) g.fillText('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB', 10, y);
    const tall = canvas.toBuffer('image/jpeg', 60);
    expect(tall.length).toBeLessThan(IMAGE_LIMITS.maxBytes);
    const prepared = await prepareForOcr(tall);
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    const out = prepared.page;
    expect(out.width * out.height).toBeLessThanOrEqual(IMAGE_LIMITS.maxOcrPixels * 1.01);
    expect(prepared.scale).toBeLessThan(1);
  });

  it('inverts dark themes and brings text to the height Tesseract reads best', async () => {
    const dark = await prepareForOcr(renderScreenshot('Allocation on device', consoleStyle('dark', 1)).image);
    const light = await prepareForOcr(renderScreenshot('Allocation on device', consoleStyle('light', 1)).image);
    const discord = await prepareForOcr(renderScreenshot('Allocation on device', STYLES.discord).image);
    const large = await prepareForOcr(renderScreenshot('Allocation on device', { ...STYLES.phone, size: 64, wrapWidth: 1400 }).image);
    expect(dark).toMatchObject({ ok: true, inverted: true });
    expect(light).toMatchObject({ ok: true, inverted: false });
    expect(discord).toMatchObject({ ok: true, inverted: true });
    // 12 px console text is upscaled about twofold; a phone's large text is scaled down, which is faster to read.
    expect(dark.ok ? dark.scale : 0).toBeGreaterThan(1.6);
    expect(large.ok ? large.scale : 1).toBeLessThan(1);
  });
});
