import { describe, expect, it } from 'vitest';
import { decodeText } from '../../src/ingest/decode.ts';
import { imageSize, prepareForOcr } from '../../src/ingest/image.ts';
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
