// Terminal mode in a real child process: scripted answers, and a SIGKILL in the middle of a case.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { runTerminal } from '../../src/cli/terminal.ts';
import { Engine } from '../../src/conversation/engine.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { computeStats } from '../../src/stats/figures.ts';
import { sample } from '../helpers/corpus.ts';
import { classify, kb } from '../helpers/kb.ts';
import { BARE_OOM, NVIDIA_BANNER, onNvidia } from '../conversation/pastes.ts';
import { line, runOnPty } from '../helpers/pty.ts';
import { INGEST_LIMITS } from '../../src/ingest/limits.ts';

const bin = fileURLToPath(new URL('../../bin/comfyoom.mjs', import.meta.url));
/** A log as pasted into the terminal, ended by an empty line; the card is named unless `bare`. */
const asPasted = (text: string) => text.split('\n').filter((l) => l.trim()).join('\n') + '\n\n';
const paste = (id: string) => asPasted(onNvidia(sample(id).text));
const newDb = () => join(mkdtempSync(join(tmpdir(), 'term-')), 'cases.db');
const env = { ...process.env, COMFYOOM_DB: '' };

async function onlyCase(dbPath: string) {
  const db = openDb(dbPath);
  const store = new CaseStore(sqliteSql(db));
  const id = db.prepare('SELECT id FROM cases').pluck().get() as string;
  const result = { ...(await store.get(id))!, records: await store.records(id) };
  db.close();
  return result;
}

describe('terminal mode', () => {
  it('runs a whole scripted conversation from piped answers', async () => {
    const db = newDb();
    const input = `${paste('cf-0214')}n\nsame\nskip\ny\n`;
    const r = spawnSync(process.execPath, [bin, 'chat', '--db', db], { input, encoding: 'utf8', env, timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Step 1 of/);
    expect(r.stdout).toMatch(/What happened when you tried it/);
    expect(r.stdout).toMatch(/Step 3 of/);
    expect(r.stdout).toMatch(/fixed by/);
    const c = await onlyCase(db);
    expect(c.row).toMatchObject({ platform: 'terminal', status: 'resolved', resolution: 'confirmed' });
    expect(c.records.filter((x) => x.type === 'answered').map((x) => (x as { answer: string }).answer)).toEqual(['failed', 'skipped', 'worked']);
  });

  it('reads words typed at a step as the answer they are, not as a new log', async () => {
    const db = newDb();
    const input = `${paste('cf-0214')}still OOM\nhow do I do that?\nit worked!\n`;
    const r = spawnSync(process.execPath, [bin, 'chat', '--db', db], { input, encoding: 'utf8', env, timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).not.toMatch(/Progress:/);
    expect(r.stdout).toMatch(/Step 2 of/);
    expect(r.stdout).toMatch(/fixed by/);
    const c = await onlyCase(db);
    expect(c.row).toMatchObject({ status: 'resolved', resolution: 'confirmed' });
    expect(c.records.map((x) => x.type)).not.toContain('log_pasted');
    expect(c.records.filter((x) => x.type === 'answered').map((x) => [(x as { answer: string }).answer, (x as { reason?: string }).reason])).toEqual([
      ['failed', 'same'],
      ['worked', undefined],
    ]);
  });

  it('writes the hand-over summary it announces, and speaks of a help channel, not of helpers here', () => {
    const db = newDb();
    const cwd = mkdtempSync(join(tmpdir(), 'term-out-'));
    const r = spawnSync(process.execPath, [bin, 'chat', '--db', db], { input: `${asPasted(sample('cf-0069').text)}${'skip\n'.repeat(8)}`, encoding: 'utf8', env, cwd, timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/post it in a ComfyUI help channel/);
    expect(r.stdout).not.toMatch(/helpers in this channel/);
    const saved = /Saved as (\S+comfyoom-[\w-]+\.md)/.exec(r.stdout)?.[1];
    expect(saved).toBeDefined();
    expect(readFileSync(saved!, 'utf8')).toMatch(/^# ComfyOOM/);
  });

  it('takes a choice typed as its label, in the language it was shown in', async () => {
    const db = newDb();
    // A Chinese paste: the choices come in Chinese, and are answered with their words.
    const input = `${asPasted(sample('cf-0201').text)}还是报错\n同样的错误\n跳过\n解决了\n`;
    const r = spawnSync(process.execPath, [bin, 'chat', '--db', db], { input, encoding: 'utf8', env, timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\[1\] 解决了 {2}\[2\] 还是报错 {2}\[3\] 跳过/);
    expect(r.stdout).toMatch(/\[1\] 同样的错误/);
    const c = await onlyCase(db);
    expect(c.row).toMatchObject({ status: 'resolved', resolution: 'confirmed' });
    expect(c.records.filter((x) => x.type === 'answered').map((x) => (x as { answer: string }).answer)).toEqual(['failed', 'skipped', 'worked']);
  });

  it('on a terminal, takes a log with empty lines of its own as one paste, ended by the user\'s empty line', async () => {
    // A real console paste whose first empty line comes before the error: read up to there, it
    // is no error at all.
    const text = sample('cf-0214').text;
    const [firstPart] = text.split(/\n\s*\n/);
    expect(text).toMatch(/\n\s*\n/);
    expect(classify(firstPart!).entry.id).not.toBe(classify(text).entry.id);

    const db = openDb(':memory:');
    const engine = new Engine({ kb, store: new CaseStore(sqliteSql(db)) });
    const input = new PassThrough();
    let shown = '';
    const done = runTerminal({ engine, input, out: (s) => (shown += `${s}\n`), interactive: true, user: 'local:tester' });
    // Pasted at once, as a terminal delivers a paste, then the user's own empty line.
    input.write(`${text}\n\n`);
    await expect.poll(() => shown, { timeout: 10_000 }).toMatch(/Step 1 of|\[1\]/);
    input.end('stop\n');
    await done;

    expect(shown).not.toMatch(/found no error in that/);
    const cases = db.prepare('SELECT entry, paste FROM cases').all() as { entry: string; paste: string }[];
    expect(cases).toHaveLength(1);
    expect(cases[0]!.entry).toBe(classify(text).entry.id);
    db.close();
  });

  // 20 MB of input that never pauses for an empty line, made as it is read: `yes "…OOM…" | comfyoom chat`.
  const flood = (lineText: string, { breaks = true, first = '', last = '' } = {}) =>
    Readable.from(
      (function* () {
        yield Buffer.from(first);
        const chunk = Buffer.from((breaks ? `${lineText}\n` : lineText).repeat(Math.ceil(65_536 / (lineText.length + 1))));
        for (let sent = 0; sent < 20 * 1024 * 1024; sent += chunk.length) yield chunk;
        yield Buffer.from(last);
      })(),
    );
  /** Runs the terminal on `input`: what it printed, and the length of each text the engine was given. */
  async function runOn(input: Readable) {
    const db = openDb(':memory:');
    const engine = new Engine({ kb, store: new CaseStore(sqliteSql(db)) });
    const handed: number[] = [];
    // open(origin, text) and paste(caseId, text, origin): the text comes second in both.
    for (const method of ['open', 'paste'] as const) {
      const real = engine[method].bind(engine) as (...args: unknown[]) => ReturnType<Engine[typeof method]>;
      vi.spyOn(engine, method).mockImplementation((...args: unknown[]) => {
        handed.push(Buffer.byteLength(args[1] as string));
        return real(...args);
      });
    }
    let shown = '';
    await runTerminal({ engine, input, out: (s) => (shown += `${s}\n`), interactive: false, user: 'local:tester' });
    const cases = db.prepare('SELECT entry FROM cases').pluck().all() as string[];
    db.close();
    return { shown, handed, cases, consumed: input.readableEnded };
  }

  it('keeps the head and tail of a piped paste longer than 8 MB, says so, and hands the engine no more', async () => {
    // The card is named in the first line only, the node in the last lines only.
    const r = await runOn(flood(BARE_OOM, { first: `${NVIDIA_BANNER}\n`, last: `Error occurred when executing VAEDecode:\n${BARE_OOM}\n` }));
    expect(r.consumed).toBe(true);
    expect(r.shown).toMatch(/longer than 8 MB: I read its first 2 MB and its last 6 MB\. \/ .+ 8 MB/);
    expect(r.handed).toHaveLength(1);
    expect(r.handed[0]).toBeLessThanOrEqual(INGEST_LIMITS.maxFileBytes);
    expect(r.handed[0]).toBeGreaterThan(INGEST_LIMITS.maxFileBytes - 1024);
    expect(r.cases).toEqual(['gpu-oom-vae']);
    expect(r.shown).not.toMatch(/NVIDIA, or AMD/);
  }, 60_000);

  it('hands the engine no more than 8 MB of a 20 MB line that never ends', async () => {
    const r = await runOn(flood(`${BARE_OOM} `, { breaks: false }));
    expect(r.consumed).toBe(true);
    expect(r.shown).toMatch(/longer than 8 MB/);
    expect(r.handed).toHaveLength(1);
    expect(r.handed[0]).toBeLessThanOrEqual(INGEST_LIMITS.maxFileBytes);
    expect(r.cases).toHaveLength(1);
  }, 60_000);

  it('opens no case for words that are not an error ("stop", "n" with no case open)', () => {
    const db = newDb();
    const r = spawnSync(process.execPath, [bin, 'chat', '--db', db], { input: 'stop\n\nn\n\nthanks, it works now\n\n', encoding: 'utf8', env, timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/found no error in that/);
    const opened = openDb(db);
    expect(opened.prepare('SELECT COUNT(*) FROM cases').pluck().get()).toBe(0);
    opened.close();
  });

  it('leaves on "quit" (or 退出) with no case open, and reads no further line', () => {
    for (const word of ['quit', '退出']) {
      const db = newDb();
      const r = spawnSync(process.execPath, [bin, 'chat', '--db', db], { input: `${word}\n${paste('cf-0214')}`, encoding: 'utf8', env, timeout: 60_000 });
      expect(r.status).toBe(0);
      expect(r.stdout).not.toMatch(/found no error in that/);
      const opened = openDb(db);
      expect(opened.prepare('SELECT COUNT(*) FROM cases').pluck().get()).toBe(0);
      opened.close();
    }
  });

  it('on a real terminal (a pseudo-terminal), leaves at once on "quit" or "退出", at the paste prompt and at a step, keeping the case', async () => {
    const session = (db: string, lines: string[], leave: string) => runOnPty([process.execPath, bin, 'chat', '--db', db], [...lines, leave].map(line), env);
    for (const leave of ['quit', '退出']) {
      const r = await session(newDb(), [], leave);
      expect(r.code, r.out).toBe(0);
    }
    const db = newDb();
    const atStep = await session(db, [...onNvidia(sample('cf-0214').text).split('\n').filter((l) => l.trim()), ''], 'quit');
    expect(atStep.code, atStep.out).toBe(0);
    expect(atStep.out).toMatch(/Step 1 of/);
    expect(atStep.out).toMatch(/Your case stays open/);
    expect((await onlyCase(db)).row.status).toBe('open');
  });

  it('reads the first paste from a file with `chat FILE`', async () => {
    const db = newDb();
    const file = join(mkdtempSync(join(tmpdir(), 'paste-')), 'error.log');
    spawnSync('sh', ['-c', `cat > "${file}"`], { input: onNvidia(sample('cf-0009').text) });
    const r = spawnSync(process.execPath, [bin, 'chat', file, '--db', db], { input: 'stop\n', encoding: 'utf8', env, timeout: 60_000 });
    expect(r.stdout).toMatch(/VAE/);
    expect((await onlyCase(db)).row.status).toBe('cancelled');
  });

  it('keeps every answer when killed mid-conversation, and resumes at the same step', async () => {
    const db = newDb();
    const child = spawn(process.execPath, [bin, 'chat', '--db', db], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const waitFor = (re: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (re.test(out)) {
            clearInterval(timer);
            resolve();
          }
        }, 20);
        setTimeout(() => {
          clearInterval(timer);
          reject(new Error(`timed out waiting for ${re}; got:\n${out}`));
        }, 30_000);
      });
    child.stdin.write(paste('cf-0214'));
    await waitFor(/Step 1 of/);
    child.stdin.write('n\n');
    await waitFor(/What happened when you tried it/);
    child.stdin.write('same\n');
    await waitFor(/Step 2 of/);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const killed = await onlyCase(db);
    expect(killed.row.status).toBe('open');
    expect(killed.state.index).toBe(1);
    expect(killed.records.map((r) => r.type)).toEqual(['opened', 'offered', 'asked_reason', 'answered', 'offered']);

    const resumed = spawnSync(process.execPath, [bin, 'chat', '--resume', '--db', db], { input: 'skip\n', encoding: 'utf8', env, timeout: 60_000 });
    // It says which case it resumes: its title and when it was opened.
    expect(resumed.stdout).toMatch(/^Resuming your case of \d{4}-\d\d-\d\d \d\d:\d\d: Out of GPU memory while sampling \/ 继续 /m);
    expect(resumed.stdout).toMatch(/Step 2 of/);
    expect(resumed.stdout).toMatch(/Step 3 of/);
    const after = await onlyCase(db);
    expect(after.state.index).toBe(2);
    expect(after.records.filter((r) => r.type === 'answered')).toHaveLength(2);
  });

  it('asks before the first step when the log cannot tell: numbered choices, a typed node name, stats', async () => {
    const db = newDb();
    // NVIDIA, then a name that is no node (ignored, with a hint), then the node's name.
    const input = `${asPasted(BARE_OOM)}1\nthanks\n\nKSampler\ny\n`;
    const r = spawnSync(process.execPath, [bin, 'chat', '--db', db], { input, encoding: 'utf8', env, timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/NVIDIA, or AMD \(ROCm\/ZLUDA\)\?\n\[1\] NVIDIA {2}\[2\] AMD \(ROCm\/ZLUDA\) {2}\[3\] I don't know/);
    expect(r.stdout).toMatch(/Which node was running \(outlined in red\)\?/);
    expect(r.stdout).toMatch(/\[1\] Sampler \(KSampler, SamplerCustom, WanVideoSampler\.\.\.\) {2}\[2\] VAE Decode\/Encode/);
    expect(r.stdout).toMatch(/could not read `thanks` as an answer/);
    expect(r.stdout).toMatch(/Got it: KSampler\. So this is: Out of GPU memory while sampling/);
    expect(r.stdout).toMatch(/fixed by/);
    const c = await onlyCase(db);
    expect(c.row).toMatchObject({ entry: 'gpu-oom-sampling', status: 'resolved', resolution: 'confirmed' });
    expect(JSON.parse(c.row.facts)).toMatchObject({ gpuVendor: 'nvidia', node: 'KSampler', stage: 'sampling' });
    expect(c.records.map((x) => x.type)).toEqual(['opened', 'asked', 'clarified', 'asked', 'clarified', 'offered', 'answered', 'resolved']);

    const json = spawnSync(process.execPath, [bin, 'stats', '--json', '--db', db], { encoding: 'utf8', env, timeout: 60_000 });
    expect(JSON.parse(json.stdout).questions).toEqual({
      casesAsked: 1,
      byQuestion: [
        { question: 'vendor', asked: 1, answers: { nvidia: 1, amd: 0, unknown: 0 }, typed: 0, unanswered: 0 },
        { question: 'stage', asked: 1, answers: { sampling: 1, vae: 0, loader: 0, other: 0, unknown: 0 }, typed: 1, unanswered: 0 },
      ],
    });
    const textStats = spawnSync(process.execPath, [bin, 'stats', '--db', db], { encoding: 'utf8', env, timeout: 60_000 }).stdout;
    expect(textStats).toMatch(/Asked before the first step, because the log could not tell: 1 case\n/);
    expect(textStats).toMatch(/stage {3}asked 1: sampling 1 · vae 0 · loader 0 · other 0 · don't know 0 · unanswered 0 \(typed 1\)/);
  });

  it('stops at the question, and while waiting for a new log, when "stop" is typed', async () => {
    const atQuestion = newDb();
    spawnSync(process.execPath, [bin, 'chat', '--db', atQuestion], { input: `${asPasted(BARE_OOM)}stop\n`, encoding: 'utf8', env, timeout: 60_000 });
    const asked = await onlyCase(atQuestion);
    expect(asked.row.status).toBe('cancelled');
    expect(asked.records.map((x) => x.type)).toEqual(['opened', 'asked', 'cancelled']);

    const atLog = newDb();
    const r = spawnSync(process.execPath, [bin, 'chat', '--db', atLog], { input: `${paste('cf-0214')}4\nstop\n`, encoding: 'utf8', env, timeout: 60_000 });
    expect(r.stdout).not.toMatch(/found no error in that/);
    const waited = await onlyCase(atLog);
    expect(waited.row.status).toBe('cancelled');
    expect(waited.records.map((x) => x.type)).toEqual(['opened', 'offered', 'asked_log', 'cancelled']);
  });

  it('resumes at an unanswered question, where "I don\'t know" keeps the generic plan', async () => {
    const db = newDb();
    spawnSync(process.execPath, [bin, 'chat', '--db', db], { input: asPasted(BARE_OOM), encoding: 'utf8', env, timeout: 60_000 });
    expect((await onlyCase(db)).state).toMatchObject({ awaiting: 'question', question: 'vendor' });

    const resumed = spawnSync(process.execPath, [bin, 'chat', '--resume', '--db', db], { input: '3\n5\n', encoding: 'utf8', env, timeout: 60_000 });
    expect(resumed.stdout).toMatch(/NVIDIA, or AMD/);
    expect(resumed.stdout).toMatch(/No problem/);
    expect(resumed.stdout).toMatch(/Step 1 of/);
    const c = await onlyCase(db);
    expect(c.row.entry).toBe('gpu-oom-other');
    expect(c.state).toMatchObject({ awaiting: 'answer', plan: { entry: 'gpu-oom-other' } });
    const db2 = openDb(db);
    expect((await computeStats(sqliteSql(db2))).questions.byQuestion.map((q) => q.answers.unknown)).toEqual([1, 1]);
    db2.close();
  });
});
