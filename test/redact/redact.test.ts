import { describe, expect, it } from 'vitest';
import { redact, redactValuesQuickly } from '../../src/redact/redact.ts';
import { corpus } from '../helpers/corpus.ts';

describe('redaction before storing', () => {
  it('hides usernames in home paths, as they appear in real pastes', async () => {
    const withHomes = corpus.filter((s) => /[\\/](?:Users|home)[\\/]user\d+/.test(s.text));
    expect(withHomes.length).toBeGreaterThan(5);
    for (const s of withHomes) expect(await redact(s.text), s.id).not.toMatch(/[\\/](?:Users|Usuários|home)[\\/]+user\d+/);
    expect(await redact('C:\\Users\\alice\\AppData\\Local\\Programs\\@comfyorgcomfyui-electron')).toBe('C:\\Users\\<user>\\AppData\\Local\\Programs\\@comfyorgcomfyui-electron');
    expect(await redact('File "/home/bob/ComfyUI/main.py"')).toBe('File "/home/<user>/ComfyUI/main.py"');
    expect(await redact('/Users/carol/Documents/ComfyUI')).toBe('/Users/<user>/Documents/ComfyUI');
  });

  it('keeps the paths that name nobody', async () => {
    expect(await redact('C:\\ComfyUI_windows_portable\\ComfyUI\\execution.py')).toBe('C:\\ComfyUI_windows_portable\\ComfyUI\\execution.py');
    expect(await redact('/Applications/ComfyUI.app/Contents/Resources')).toBe('/Applications/ComfyUI.app/Contents/Resources');
  });

  it('hides e-mail and IP addresses but keeps loopback', async () => {
    expect(await redact('mail me at jane.doe+comfy@example.co.uk')).toBe('mail me at <email>');
    expect(await redact('To see the GUI go to: http://192.168.1.23:8188 or http://127.0.0.1:8188')).toBe('To see the GUI go to: http://<ip>:8188 or http://127.0.0.1:8188');
    expect(await redact('bound to fe80:0:0:0:1ff:fe23:4567:890a')).toBe('bound to <ip>');
  });

  it('hides tokens and keys of every usual shape', async () => {
    const discord = ['MTA4', 'NzY1NDMyMTAxMjM0NTY3OA', '.GhIjKl.', 'abcdefghijklmnopqrstuvwxyz0123456789AB'].join('');
    expect(await redact(`DISCORD_TOKEN=${discord}`)).not.toContain(discord);
    expect(await redact('token xoxb-1234567890-0987654321-abcdefABCDEF')).not.toMatch(/xoxb-\d/);
    expect(await redact('HF_TOKEN hf_abcdefghijklmnopqrstuvwxyzABCDEFGH')).not.toMatch(/hf_[a-z]{10}/);
    expect(await redact('OPENAI sk-proj-abcdefghijklmnopqrstuvwxyz123456')).not.toContain('abcdefghijklmnop');
    expect(await redact('api_key = "s3cr3tValue!!"')).toBe('api_key = "<secret>"');
    expect(await redact('Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345')).toBe('Authorization: Bearer <token>');
  });

  it('hides secrets in URLs', async () => {
    expect(await redact('https://user:hunter2@huggingface.co/x')).not.toMatch(/hunter2|user:/);
    expect(await redact('https://civitai.com/api/download/models/1?token=abc123def456&type=Model')).toBe('https://civitai.com/api/download/models/1?token=<secret>&type=Model');
  });
});

describe('redaction of a batch\'s values', () => {
  it('gives every value the same answer as redact, the first time and every time after, beyond its memory of values', async () => {
    const values = ['windows', 'AKIAABCDEFGHIJKLMNOP', 'me@example.com', 'C:\\Users\\dave\\x', '10.1.2.3', 'token=abcdefgh'];
    // More distinct short values than it remembers, so it also forgets and learns again.
    const many = Array.from({ length: 5000 }, (_, i) => `value ${i} 10.0.0.${i % 250}`);
    for (let round = 0; round < 3; round++) {
      const out = redactValuesQuickly({ values, nested: { list: [...values].reverse() }, many });
      expect(out.values).toEqual(await Promise.all(values.map(redact)));
      expect(out.nested.list).toEqual([...out.values].reverse());
      expect(out.many[4999]).toBe('value 4999 <ip>');
      expect(out.values.join(' ')).not.toMatch(/AKIA|example\.com|dave|10\.1\.2\.3|abcdefgh/);
    }
  });

  it('keeps a key named __proto__ a key, redacted, never the copy\'s prototype', () => {
    const out = redactValuesQuickly(JSON.parse('{"__proto__": {"polluted": "me@example.com"}, "a": 1}'));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":"<email>"},"a":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('redaction over a long life', () => {
  it('keeps nothing of the runs behind it (secretlint profiles every run)', async () => {
    const { secretLintProfiler } = await import('@secretlint/profiler');
    const { performance } = await import('node:perf_hooks');
    for (let i = 0; i < 200; i++) await redact(`RuntimeError: CUDA out of memory ${i} hf_abcdefghijklmnopqrstuvwxyzABCDEFGH`);
    await new Promise((r) => setTimeout(r, 20));
    expect(await secretLintProfiler.getEntries()).toEqual([]);
    expect(performance.getEntriesByType('mark')).toEqual([]);
  });
});
