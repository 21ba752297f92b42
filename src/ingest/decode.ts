// Bytes of an attached log to text. ComfyUI logs come as UTF-8, as UTF-16 (PowerShell's `>`
// redirect writes it with a BOM) and, from Chinese Windows consoles, as GBK.

export type Decoded = { ok: true; text: string; encoding: string } | { ok: false; reason: 'binary' };

function hasUtf16Shape(buf: Buffer): 'utf-16le' | 'utf-16be' | undefined {
  // ASCII text in UTF-16 has a NUL in every other byte.
  const n = Math.min(buf.length, 2000) & ~1;
  if (n < 4) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (buf[i] === 0) evenNul++;
    if (buf[i + 1] === 0) oddNul++;
  }
  if (oddNul > n / 2 / 2 && evenNul < n / 2 / 10) return 'utf-16le';
  if (evenNul > n / 2 / 2 && oddNul < n / 2 / 10) return 'utf-16be';
  return undefined;
}

/**
 * Whether decoded characters read as text: a byte order mark or a NUL in every other byte says
 * "UTF-16" of any binary, so what it decodes to must be mostly printable (control characters,
 * C1 codes and replacement characters are a binary's, not a log's).
 */
function readsAsText(text: string): boolean {
  const sample = text.slice(0, 4000);
  const odd = sample.match(/[\u0000-\u0008\u000e-\u001f\u007f-\u009f\ufffd\ud800-\udfff]/g)?.length ?? 0;
  return odd <= sample.length / 50;
}

function decodedUtf16(buf: Buffer, encoding: 'utf-16le' | 'utf-16be'): Decoded {
  const text = new TextDecoder(encoding).decode(buf);
  return readsAsText(text) ? { ok: true, text, encoding } : { ok: false, reason: 'binary' };
}

export function decodeText(buf: Buffer): Decoded {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return { ok: true, text: buf.subarray(3).toString('utf8'), encoding: 'utf-8' };
  if (buf[0] === 0xff && buf[1] === 0xfe) return decodedUtf16(buf.subarray(2), 'utf-16le');
  if (buf[0] === 0xfe && buf[1] === 0xff) return decodedUtf16(buf.subarray(2), 'utf-16be');
  const utf16 = hasUtf16Shape(buf);
  if (utf16) return decodedUtf16(buf, utf16);
  if (buf.subarray(0, 8000).includes(0)) return { ok: false, reason: 'binary' };
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(buf), encoding: 'utf-8' };
  } catch {
    // Not UTF-8: a Chinese Windows console (code page 936) is by far the likeliest source.
    const text = new TextDecoder('gbk').decode(buf);
    const replaced = text.match(/\ufffd/g)?.length ?? 0;
    return replaced > text.length / 20 ? { ok: false, reason: 'binary' } : { ok: true, text, encoding: 'gbk' };
  }
}
