// Screenshots and files through the engine, with the real OCR pool and a real SQLite file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine, type Origin } from '../../src/conversation/engine.ts';
import type { Message } from '../../src/conversation/render.ts';
import type { Attachment } from '../../src/ingest/ingest.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { kb } from '../helpers/kb.ts';
import { sample } from '../helpers/corpus.ts';
import { ocr } from '../helpers/ocr.ts';
import { consoleStyle, renderScreenshot, STYLES } from '../helpers/screenshot.ts';

const user: Origin = { platform: 'discord', channel: 'c', user: 'u1' };
const file = (name: string, data: Buffer, contentType?: string): Attachment => ({ name, size: data.length, ...(contentType ? { contentType } : {}), read: async () => data });
const text = (m: Message[]) => m.flatMap((x) => x.blocks.map((b) => b.text)).join('\n');

function engine() {
  const db = openDb(join(mkdtempSync(join(tmpdir(), 'img-')), 'cases.db'));
  return { db, engine: new Engine({ kb, store: new CaseStore(sqliteSql(db)), ocr }) };
}

describe('screenshots and files', () => {
  it('diagnoses a dark console screenshot and opens a case', async () => {
    const { engine: e, db } = engine();
    const out = await e.receive(user, { attachments: [file('error.png', renderScreenshot(sample('cf-0009').text, consoleStyle('dark', 1)).image, 'image/png')] });
    expect(out[0]!.caseId).toBeTruthy();
    expect(db.prepare('SELECT category FROM cases').pluck().get()).toBe('oom_gpu_vae');
  });

  it('shows what it read and asks for the text when the match is weak, opening no case', async () => {
    const { engine: e, db } = engine();
    const out = await e.receive(user, { attachments: [file('photo.png', renderScreenshot('my cat sleeping on the keyboard\nlovely afternoon', consoleStyle('light', 1)).image)] });
    expect(text(out)).toMatch(/I read this from your screenshot/);
    expect(text(out)).toMatch(/cat sleeping/);
    expect(db.prepare('SELECT COUNT(*) FROM cases').pluck().get()).toBe(0);
  });

  it('shows what it read privately and redacted: no token or user name from the screen', async () => {
    const { engine: e } = engine();
    const hf = 'hf_' + 'kQ7mZp2XvR9tLw4YbN8cHd3JfG6sAe5Uq1';
    const ghp = 'ghp_' + 'T4nV8bQ2mK7xW1cZ9rL3pY6dH5fJ0sG2aE8u';
    const screen = ['Starting server', `HF_TOKEN=${hf}`, `git clone https://${ghp}@github.com/me/nodes`, 'C:\\Users\\Zoltanova\\ComfyUI\\main.py', 'something went wrong'].join('\n');
    const out = await e.receive(user, { attachments: [file('screen.png', renderScreenshot(screen, consoleStyle('dark', 1)).image, 'image/png')] });
    const doubt = out.find((m) => /I read this from your screenshot/.test(text([m])))!;
    expect(doubt.ephemeral).toBe(true);
    expect(text([doubt])).toMatch(/Starting server/);
    expect(text([doubt])).toMatch(/<user>/);
    expect(text([doubt])).not.toMatch(/Zoltanova|kQ7mZp2X|T4nV8bQ2/);
  });

  it('asks for the text of a screenshot that shows no error line, in any style, rather than guess', async () => {
    const banner = [
      '** ComfyUI startup time: 2025-03-14 21:04:33.412',
      '** Platform: Windows',
      '** Python version: 3.12.9 (tags/v3.12.9:fdb8142, Feb  4 2025, 15:27:58) [MSC v.1942 64 bit (AMD64)]',
      '** ComfyUI Path: D:\\ComfyUI_windows_portable\\ComfyUI',
      'Checkpoint files will always be loaded safely.',
      'Total VRAM 12282 MB, total RAM 32607 MB',
      'pytorch version: 2.6.0+cu126',
      'Set vram state to: NORMAL_VRAM',
      'Device: cuda:0 NVIDIA GeForce RTX 4070 : cudaMallocAsync',
      'Using pytorch attention',
      'ComfyUI version: 0.3.26',
      'Import times for custom nodes:',
      '   0.0 seconds: D:\\ComfyUI_windows_portable\\ComfyUI\\custom_nodes\\websocket_image_save.py',
      'Starting server',
      '',
      'To see the GUI go to: http://127.0.0.1:8188',
    ].join('\n');
    const chat = 'anyone else getting really slow renders with flux on a 3060 since the last update? it takes about four minutes per image now and the fans go crazy';
    const shots = [renderScreenshot(banner, STYLES.windows), renderScreenshot(banner, STYLES.discord), renderScreenshot(chat, STYLES.phone)];
    for (const [i, shot] of shots.entries()) {
      const { engine: e, db } = engine();
      const out = await e.receive(user, { attachments: [file(`shot${i}.${i ? 'jpg' : 'png'}`, shot.image)] });
      expect(text(out)).toMatch(/I read this from your screenshot/);
      expect(db.prepare('SELECT COUNT(*) FROM cases').pluck().get()).toBe(0);
    }
  });

  it('limits screenshots per user per minute, with a clear message', async () => {
    const { engine: e } = engine();
    const shots = Array.from({ length: 4 }, (_, i) => file(`s${i}.png`, Buffer.from('x')));
    expect(text(await e.receive(user, { attachments: shots }))).toMatch(/at most 3 a minute/);
  });

  it('answers every file it cannot read and diagnoses the rest', async () => {
    const { engine: e } = engine();
    const out = await e.receive(user, {
      attachments: [
        file('huge.log', Buffer.alloc(1), 'text/plain'),
        { name: 'big.log', size: 50 * 1024 * 1024, read: async () => Buffer.alloc(0) },
        file('model.safetensors', Buffer.from([1, 2, 3])),
        file('error.log', Buffer.from(sample('cf-0214').text, 'utf16le')),
      ],
    });
    expect(text(out)).toMatch(/big.log is too large/);
    expect(text(out)).toMatch(/model.safetensors is not a file type I read/);
    expect(out.some((m) => m.caseId)).toBe(true);
  });
});
