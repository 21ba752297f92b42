// Secrets and personal data pasted in every position a log can hold them, through the real
// engine into a real SQLite file: afterwards no column of any table, and no byte of the database
// or its write-ahead log, holds them.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine, type Origin } from '../../src/conversation/engine.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { renderOne } from '../../src/cli/diagnose.ts';
import { classify, kb } from '../helpers/kb.ts';

// Generated, so that no scanner takes this file for a leak, and distinct, so that no secret's
// characters can turn up inside another's; each has the shape of the real thing.
let seed = 0x9e3779b9;
const r = (n: number, alphabet = 'aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789') =>
  Array.from({ length: n }, () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return alphabet[seed % alphabet.length];
  }).join('');

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const HEX = '0123456789abcdef';

/** [what it is, the secret as pasted, the part that must never be stored] */
const secret = (what: string, core: string, shape: (core: string) => string): [string, string, string] => [what, shape(core), core];
const SECRETS: [string, string, string][] = [
  secret('GitHub classic token', r(36), (c) => `ghp_${c}`),
  secret('GitHub fine-grained token', r(59), (c) => `github_pat_11A${r(19)}_${c}`),
  secret('AWS access key id', r(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'), (c) => `AKIA${c}`),
  secret('AWS secret key assignment', r(40), (c) => `aws_secret_access_key = ${c}`),
  secret('AWS session token', `FwoGZXIvYXdzE${r(60)}`, (c) => `AWS_SESSION_TOKEN=${c}`),
  secret('OpenAI project key', r(74), (c) => `sk-proj-${c}T3BlbkFJ${r(74)}`),
  secret('OpenAI service-account key', r(74), (c) => `sk-svcacct-${c}T3BlbkFJ${r(74)}`),
  secret('Anthropic key', r(93), (c) => `sk-ant-api03-${c}-${r(6)}AA`),
  secret('Hugging Face token', r(34), (c) => `hf_${c}`),
  secret('Slack bot token', r(24), (c) => `xoxb-2${r(11, '0123456789')}-${r(13, '0123456789')}-${c}`),
  secret('Slack refresh token', r(140), (c) => `xoxe-1-My0x${c}`),
  secret('Slack webhook', r(24), (c) => `https://hooks.slack.com/services/T0${r(8)}/B0${r(8)}/${c}`),
  secret('Discord bot token', r(38), (c) => `MTA${r(23)}.Gh${r(4)}.${c}`),
  secret('Discord webhook', r(68), (c) => `https://discord.com/api/webhooks/1234567890123456789/${c}`),
  secret('Google API key', r(35), (c) => `AIza${c}`),
  secret('GitLab token', r(20), (c) => `glpat-${c}`),
  secret('npm token', r(36), (c) => `npm_${c}`),
  secret('a JWT', r(43), (c) => `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.${c}`),
  secret('a DB password assignment', r(18), (c) => `DB_PASSWORD=${c}`),
  secret('a secret assignment', r(22), (c) => `MY_APP_SECRET: ${c}`),
  secret('a quoted token', r(26), (c) => `token="${c}"`),
  secret('a bearer header', r(40), (c) => `Authorization: Bearer ${c}`),
  secret('a token URL parameter', r(32), (c) => `https://civitai.com/api/download/models/12345?type=Model&token=${c}`),
  secret('an hf_token URL parameter', r(30), (c) => `https://example.org/model.safetensors?hf_token=${c}`),
  secret('a private_token URL parameter', r(20), (c) => `https://gitlab.example.com/api/v4/x?private_token=${c}`),
  secret('URL credentials', r(16), (c) => `https://someone:${c}@huggingface.co/repo`),
  secret('an e-mail address', 'Jane.Doe+comfy', () => 'Jane.Doe+comfy@mail.example.co.uk'),
  secret('an IPv4 address', '203.0.113.77', () => 'http://203.0.113.77:8188'),
  secret('an IPv6 address with port', '2001:db8:85a3', () => 'http://[2001:db8:85a3::8a2e:370:7334]:8188'),
  secret('a Windows home', 'Zoltanova', () => 'C:\\Users\\Amelie Zoltanova\\ComfyUI\\main.py'),
  secret('a WSL home', 'kowalskij', () => '\\\\wsl$\\Ubuntu\\home\\kowalskij\\ComfyUI\\main.py'),
  secret('a UNC home', 'okonkwoe', () => '\\\\fileserver\\profiles\\Users\\okonkwoe\\ComfyUI'),
  secret('a WSL mount of a Windows home', 'haraldsen', () => '/mnt/c/Users/haraldsen/ComfyUI/main.py'),
  secret('a lower-case macOS home', 'vasquezm', () => '/users/vasquezm/ComfyUI/main.py'),
  secret('the user in a bash prompt', r(9, LOWER), (c) => `${c}@gpubox:~/ComfyUI$ python main.py`),
  secret('the host in a Fedora prompt', r(10, LOWER), (c) => `[someone@${c} ComfyUI]$ python main.py`),
  secret('the host in a Git Bash prompt', `DESKTOP-${r(7, UPPER)}`, (c) => `carol@${c} MINGW64 ~/ComfyUI`),
  secret('a name in git config -l', `Zq${r(6, LOWER)} Vx${r(7, LOWER)}`, (c) => `user.name=${c}`),
  secret('a git log author', `Ox${r(8, LOWER)}`, (c) => `Author: ${c} Okafor <someone@example.org>`),
  secret('a git log author e-mail', r(10, LOWER), (c) => `Author: Ngozi Okafor <${c}@example.org>`),
  secret('a Comfy.org API-node key', r(64, HEX), (c) => `comfyui-${c}`),
  secret('a Cookie header', r(32), (c) => `Cookie: csrftoken=${r(32)}; sessionid=${c}`),
  secret('a Set-Cookie header', r(40), (c) => `Set-Cookie: cf_clearance=${c}; Path=/; HttpOnly`),
  secret('a Civitai API key', r(32, HEX), (c) => `[Civitai] Using API key: ${c}`),
  secret('an API key named in words', r(24), (c) => `Replicate api key: ${c}`),
  secret('an aws configure secret', r(40), (c) => `AWS Secret Access Key [None]: ${c}`),
  secret('a URL-encoded token', r(32), (c) => `https://proxy.example.net/fetch?url=https%3A%2F%2Fcivitai.com%2Fapi%2Fdownload%2Fmodels%2F1%3Ftoken%3D${c}%26type%3DModel`),
  secret('a twice URL-encoded api_key', r(24), (c) => `https://example.net/r?next=%2Fdl%253Fv%253D2%2526api_key%253D${c}`),
  secret('a home in JSON inside JSON', r(9, LOWER), (c) => String.raw`"C:\\\\Users\\\\${c}\\\\ComfyUI"`),
  secret('a home written with \\u escapes', `\\u${r(4, HEX)}\\u${r(4, HEX)}`, (c) => String.raw`"C:\\Users\\${c}\\ComfyUI\\main.py"`),
  secret('a home with a \\u escape inside its name', `\\u00f6${r(6, LOWER)}`, (c) => String.raw`"C:\\Users\\J${c}\\ComfyUI"`),
  secret('a home ending a JSON string', r(9, LOWER), (c) => String.raw`{"cwd": "C:\\Users\\${c}"}`),
  secret('a Chinese e-mail address', r(4, '张王李赵欧阳娜明华伟芳'), (c) => `${c}@qq.com`),
  secret('an accented e-mail address', `jö${r(6, LOWER)}`, (c) => `${c}.müller@example.de`),
  secret('an HTML-entity e-mail address', r(10, LOWER), (c) => `${c}&#x40;example.com`),
  secret('the first line of a wrapped token', r(20), (c) => `hf_${c}\n    ${r(14)}`),
  secret('the continuation of a wrapped token', r(16), (c) => `ghp_${r(20)}\r\n${c}`),
  secret('an AWS temporary key', r(16, UPPER), (c) => `ASIA${c}`),
  secret("AWS's documentation key", 'IOSFODNN7EXAMPLE', (c) => `AKIA${c} ASIA${c}`),
  secret("AWS's documentation secret", 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', (c) => `AWS Secret Access Key [None]: ${c}`),
];

/** The same secret in each place a paste can carry it. */
const POSITIONS: [string, (secret: string) => string][] = [
  ['a log line', (s) => `got prompt\nUsing ${s}\nRequested to load SDXL\n  0%|          | 0/20 [00:00<?, ?it/s]\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.`],
  ['the exception message', (s) => `!!! Exception during processing !!! Allocation on device (while fetching ${s})\ntorch.OutOfMemoryError: Allocation on device for url: ${s}`],
  ['a stack frame', (s) => `Traceback (most recent call last):\n  File "${s}", line 12, in sample\n    x = model(x)\ntorch.OutOfMemoryError: CUDA out of memory.`],
  [
    'a workflow JSON',
    (s) =>
      `torch.OutOfMemoryError: CUDA out of memory.\n${JSON.stringify({ nodes: [{ id: 4, type: 'CheckpointLoaderSimple', widgets_values: [s] }, { id: 3, type: 'KSampler', widgets_values: [1, 'fixed', 20, 7, 'euler', 'normal', 1] }, { id: 5, type: 'EmptyLatentImage', widgets_values: [1024, 1024, 1] }], extra: { api_key: s } })}`,
  ],
];

const origin: Origin = { platform: 'discord', server: 'g1', channel: 'help', user: 'u1' };

describe('nothing secret is shown by comfyoom diagnose', () => {
  it('keeps every secret out of the readable and the JSON diagnosis', { timeout: 60_000 }, async () => {
    const leaks: string[] = [];
    for (const [what, secret, core] of SECRETS) {
      for (const [where, place] of POSITIONS) {
        const paste = place(secret);
        for (const json of [false, true]) if ((await renderOne(paste, classify, kb, { json })).includes(core)) leaks.push(`${what} in ${where}${json ? ' (--json)' : ''}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});

describe('nothing secret is stored', () => {
  it('keeps every secret of every kind out of every column and every byte of the database', { timeout: 60_000 }, async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'redact-')), 'cases.db');
    const db = openDb(path);
    const engine = new Engine({ kb, store: new CaseStore(sqliteSql(db)), ratePerMinute: 1e9 });
    for (const [, secret] of SECRETS) for (const [, place] of POSITIONS) await engine.open(origin, place(secret));

    const cases = db.prepare('SELECT COUNT(*) FROM cases').pluck().get() as number;
    expect(cases).toBe(SECRETS.length * POSITIONS.length);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    const stored = tables.flatMap((t) => (db.prepare(`SELECT * FROM "${t}"`).all() as Record<string, unknown>[]).flatMap((row) => Object.values(row).map(String))).join('\n');
    db.close();
    const raw = [path, `${path}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('\n');

    const leaks = SECRETS.filter(([, , core]) => stored.includes(core) || raw.includes(core)).map(([what]) => what);
    expect(leaks).toEqual([]);
  });

  it('stores facts as values, so a line ending in a URL with a query or a quoted path never breaks a case', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'redact-')), 'cases.db');
    const db = openDb(path);
    const engine = new Engine({ kb, store: new CaseStore(sqliteSql(db)), ratePerMinute: 1e9 });
    const endings = ['for url: https://huggingface.co/x/resolve/main/y.safetensors?token=abc123def', 'in "C:\\Users\\bob\\ComfyUI\\main.py"', "at '/home/eve/ComfyUI'"];
    for (const end of endings) {
      const out = await engine.open(origin, `torch.OutOfMemoryError: CUDA out of memory ${end}`);
      const caseId = out[0]!.caseId!;
      const facts = JSON.parse((await new CaseStore(sqliteSql(db)).get(caseId))!.row.facts) as { exception: { message: string } };
      expect(facts.exception.message).toMatch(/<secret>|<user>/);
    }
  });
});
