// What `comfyoom diagnose` prints is redacted like a stored paste, unless --raw asks for the text.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeFacts, otherAppNote } from '../../src/render/diagnosis-text.ts';
import { factsOf } from '../helpers/kb.ts';
import { sample } from '../helpers/corpus.ts';

const bin = fileURLToPath(new URL('../../bin/comfyoom.mjs', import.meta.url));
const token = ['hf', 'ZxQwErTyUiOpAsDfGhJkLmNbVcXzPoIuYt'].join('_');
const paste = [
  'To see the GUI go to: http://192.168.1.23:8188',
  `  File "C:\\Users\\Jean Dupont\\ComfyUI\\comfy\\sd.py", line 700, in decode`,
  `torch.OutOfMemoryError: CUDA out of memory while fetching https://huggingface.co/x?token=${token} for jean.dupont@example.org`,
].join('\n');
const run = (...args: string[]) => spawnSync(process.execPath, [bin, 'diagnose', '-', ...args], { input: paste, encoding: 'utf8', timeout: 60_000 });

describe('diagnose output', () => {
  it.each([['as JSON', ['--json']], ['as text', []]] as const)('hides names, addresses and tokens %s', (_how, args) => {
    const r = run(...args);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/VAE|vae/);
    for (const secret of [token, 'Jean Dupont', 'jean.dupont@example.org', '192.168.1.23']) expect(r.stdout).not.toContain(secret);
  });

  it('shows the paste as it was with --raw', () => {
    expect(run('--json', '--raw').stdout).toContain(token);
  });

  it('hides them in batch output too', () => {
    const r = spawnSync(process.execPath, [bin, 'diagnose', '--batch', '-'], { input: JSON.stringify({ id: 'a', text: paste }) + '\n', encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(r.stdout).category).toBe('oom_gpu_vae');
    expect(r.stdout).not.toContain(token);
    expect(r.stdout).not.toContain('jean.dupont@example.org');
  });
});

describe('what the log shows', () => {
  it("names the stage and the install in the user's language, the OS, backend, app and attention by their names, not by the facts' own words", () => {
    // A Linux install by hand on ROCm, failing in VAE Decode (cf-0124), and Windows portable (cf-0054).
    const shown = (id: string, lang: 'en' | 'zh') => Object.fromEntries(describeFacts(factsOf(sample(id).text), lang));
    expect(factsOf(sample('cf-0124').text)).toMatchObject({ stage: 'vae_decode', install: 'manual', os: 'linux', backend: 'rocm' });
    expect(shown('cf-0124', 'en')).toMatchObject({ 'Failing stage': 'VAE decode', Install: 'manual (venv)', OS: 'Linux', Backend: 'ROCm' });
    expect(shown('cf-0124', 'zh')).toMatchObject({ 出错阶段: 'VAE 解码', 安装方式: '手动安装（venv）', 系统: 'Linux', 后端: 'ROCm' });
    expect(shown('cf-0054', 'zh')).toMatchObject({ 出错阶段: '加载模型', 安装方式: 'Windows 便携版', 系统: 'Windows', 后端: 'CUDA' });
    // Attention and other apps by their names: Wan2GP with SageAttention (cf-0341), Fooocus on PyTorch's (cf-0685).
    expect(shown('cf-0341', 'en')).toMatchObject({ App: 'Wan2GP', Attention: 'SageAttention' });
    expect(shown('cf-0685', 'zh')).toMatchObject({ 程序: 'Fooocus', 注意力实现: 'PyTorch (SDPA)' });
  });
});

describe("another app's log", () => {
  it('says the steps are written for ComfyUI, in both languages, and says nothing of the kind for a ComfyUI log', () => {
    // AUTOMATIC1111 named by its memory line alone (the split-attention refusal under it is A1111's too).
    const webui = 'RuntimeError: Not enough memory, use lower resolution (max approx. 1472x1472). Need: 3.7GB free, Have:3.1GB free, A: 9.59 GB, R: 9.71 GB, Sys: 5.9/11.9844 GB (49.6%)';
    expect(factsOf(webui).app).toBe('webui');
    expect(otherAppNote(factsOf(webui), 'en')).toMatch(/^This log comes from AUTOMATIC1111\/Forge, not ComfyUI\./);
    expect(otherAppNote(factsOf(webui), 'zh')).toMatch(/^这份日志来自 AUTOMATIC1111\/Forge，不是 ComfyUI。/);
    expect(otherAppNote(factsOf(sample('cf-0341').text), 'en')).toMatch(/from Wan2GP, not ComfyUI/);
    expect(otherAppNote(factsOf(paste), 'en')).toBeUndefined();
    const r = spawnSync(process.execPath, [bin, 'diagnose', '-'], { input: webui, encoding: 'utf8', timeout: 60_000 });
    expect(r.stdout.split('\n')[1]).toMatch(/^This log comes from AUTOMATIC1111\/Forge, not ComfyUI/);
  });
});

describe('diagnose input limits', () => {
  it('refuses a log over the chat cap with a sentence, before reading it all', () => {
    const dir = mkdtempSync(join(tmpdir(), 'big-'));
    const file = join(dir, 'huge.log');
    writeFileSync(file, Buffer.alloc(50 * 1024 * 1024, 'a'));
    const r = spawnSync(process.execPath, [bin, 'diagnose', file], { encoding: 'utf8', timeout: 60_000 });
    rmSync(dir, { recursive: true, force: true });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/huge\.log is larger than 8 MB/);
    expect(r.stdout).toBe('');
  });
});
