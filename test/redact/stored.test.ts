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
import { kb } from '../helpers/kb.ts';

// Generated, so that no scanner takes this file for a leak, and distinct, so that no secret's
// characters can turn up inside another's; each has the shape of the real thing.
let seed = 0x9e3779b9;
const r = (n: number, alphabet = 'aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789') =>
  Array.from({ length: n }, () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return alphabet[seed % alphabet.length];
  }).join('');

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
