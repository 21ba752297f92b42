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

describe('redaction of the forms secrets take in real pastes', () => {
  const hex = (n: number) => Array.from({ length: n }, (_, i) => '0123456789abcdef'[(i * 7 + 3) % 16]).join('');
  const hfToken = ['hf_', 'QwErTyUiOpAsDfGh', 'JkLzXcVbNm12345678'].join('');
  const ghToken = ['ghp_', 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2', 'Ji1HgFeDcBaQ'].join('');
  // [form, as pasted, what must not remain, what must (the placeholders keep the log readable)]
  const FORMS: [string, string, string[], string[]?][] = [
    ['a bash prompt', 'alice@mybox:~/ComfyUI$ python main.py --lowvram', ['alice', 'mybox'], ['<user>@<host>:~/ComfyUI$ python main.py --lowvram']],
    ['a Fedora prompt and a root prompt in a container', '[bob@buildhost ComfyUI]$ python main.py\nroot@c0ffee12beef:/workspace/ComfyUI# python main.py', ['bob@', 'buildhost', 'c0ffee12beef']],
    ['a Git Bash prompt', 'carol@DESKTOP-ABC123 MINGW64 ~/ComfyUI (master)\n$ python main.py', ['carol', 'DESKTOP-ABC123']],
    ['a prompt whose host has dots', 'dave@gpu01.lab.example.org:~/ComfyUI$ python main.py', ['dave', 'gpu01'], ['<user>@<host>:~/ComfyUI$ python main.py']],
    ['git config -l', 'core.autocrlf=true\nuser.name=Jane Doe\nuser.email=jane.doe@example.org', ['Jane Doe', 'jane.doe']],
    ['a git log author', 'commit 0123456789abcdef0123456789abcdef01234567\nAuthor: Jane Doe <jane@x.org>\nDate:   Mon Jan 6 10:00:00 2025 +0100', ['Jane', 'Doe', 'jane@x.org'], ['Author: <user> <email>']],
    ['a Comfy.org API-node key', `Calling the API node with comfyui-${hex(64)}`, [hex(64)]],
    ['a Cookie header', 'Cookie: sessionid=abc123def456ghi789; csrftoken=Qz8Rt5Uv2Wx9Yz3Ab6', ['abc123def456ghi789', 'Qz8Rt5Uv2Wx9Yz3Ab6']],
    ['a Set-Cookie header', 'Set-Cookie: cf_clearance=Mn4Bv7Cx1Zl0Kj9H; Path=/; HttpOnly', ['Mn4Bv7Cx1Zl0Kj9H']],
    ['a Civitai API key', `[Civitai] Using API key: ${hex(32)}`, [hex(32)]],
    ['an API key named with spaces', 'Replicate api key: Kd93jfQ0zP1xLm7v\nsecret key = Tq2Ws8Ed4Rf6', ['Kd93jfQ0zP1xLm7v', 'Tq2Ws8Ed4Rf6']],
    ['URL-encoded query secrets', 'redirect=https%3A%2F%2Fcivitai.com%2Fapi%2Fdownload%2Fmodels%2F1%3Ftoken%3Dabcdef0123456789%26type%3DModel%26api_key%3DZyXwVu987654', ['abcdef0123456789', 'ZyXwVu987654']],
    ['a home folder in JSON inside JSON', String.raw`{"prompt": "{\"cwd\": \"C:\\\\Users\\\\alice\\\\ComfyUI\"}"}`, ['alice']],
    ['a home folder written with \\u escapes', String.raw`"C:\\Users\\\u5f20\u4e09\\ComfyUI", "C:\\Users\\J\u00f6rg\\ComfyUI\\main.py"`, ['5f20', '4e09', 'u00f6rg', 'J\\']],
    ['a home folder ending a JSON string', String.raw`{"cwd": "C:\\Users\\alicia", "home": "/home/bobby"}`, ['alicia', 'bobby']],
    ['non-ASCII e-mail local parts', '联系 欧阳娜娜@qq.com 或 jörg.müller@example.de', ['欧阳娜娜', 'jörg', 'müller']],
    ['HTML-entity e-mails', 'jane&#64;example.com and jim&#x40;example.com', ['jane', 'jim']],
    ['a Hugging Face token wrapped at 80 columns', `HF_HUB_TOKEN is ${hfToken.slice(0, 20)}\n    ${hfToken.slice(20)}`, [hfToken.slice(3, 20), hfToken.slice(20)]],
    ['the first line of a wrapped token alone (a fact holds one line)', `while fetching ${hfToken.slice(0, 23)}`, [hfToken.slice(3, 23)]],
    ['a GitHub token wrapped at 80 columns', `git clone https://${ghToken.slice(0, 30)}\r\n${ghToken.slice(30)}@github.com/x/y`, [ghToken.slice(4, 30), ghToken.slice(30)]],
    ['AWS temporary and example keys', 'AWS Access Key ID [None]: ASIAIOSFODNN7EXAMPLE\nAWS Secret Access Key [None]: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nkey AKIAIOSFODNN7EXAMPLE', ['IOSFODNN7EXAMPLE', 'wJalrXUtnFEMI', 'EXAMPLEKEY']],
  ];

  it.each(FORMS)('hides %s and keeps the log around it', async (_form, pasted, gone, kept = []) => {
    const text = `got prompt\n${pasted}\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB`;
    for (const out of [await redact(text), redactValuesQuickly(text)]) {
      for (const g of gone) expect(out).not.toContain(g);
      for (const k of kept) expect(out).toContain(k);
      expect(out).toMatch(/^got prompt\n/);
      expect(out).toContain('\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB');
    }
  });
});
