// `npm run test:container`: the image's life cycle, checked without a Docker engine. The Dockerfile's
// steps are done in a temporary folder (its COPY and RUN instructions in order; the image's /app and
// /data mapped into that folder; apt-get's compilers taken from this machine), and the result is
// started as the image starts it: its ENV, then .env.example read as `docker run --env-file .env`
// reads a copy of it, then its CMD, as a user other than root, with nothing of this shell's
// environment but PATH. Slack is a fake on 127.0.0.1 (SLACK_API_URL). It runs on this machine's
// Node, not the image's (npm run test:node runs the suite on the image's line). Each point prints ok
// or FAIL; the exit code is 1 when any failed. Too slow for npm test (the install alone takes
// minutes); run it before changing the Dockerfile, .env.example or how the bot starts and stops.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../../src/app/config.ts';
import { dockerEnvFile, envOf, instructions } from '../helpers/dockerfile.ts';
import { sample } from '../helpers/corpus.ts';
import { startFakeSlack } from '../slack/fake-slack.ts';
import { ALICE, APP_TOKEN, BOT_TOKEN, fakeOptions, slashPayload } from '../slack/harness.ts';

const repo = resolve(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'comfyoom-image-'));
chmodSync(tmp, 0o755);
/** The image's absolute paths, in the temporary folder. */
const inImage = (p: string) => p.replace(/^\/(app|data)(?=\/|$)/, (_, top: string) => join(tmp, top));

const failures: string[] = [];
function check(what: string, ok: boolean, detail = ''): void {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}`);
  if (!ok) failures.push(what);
}

// --- the build, step by step -------------------------------------------------------------------
const steps = instructions(readFileSync(join(repo, 'Dockerfile'), 'utf8'));
const last = Math.max(...steps.map((s) => s.stage));
let cwd = tmp;
let user = 'root';
let cmd: string[] = [];
const imageEnv: Record<string, string> = {};
const started = Date.now();
for (const step of steps) {
  if (step.op === 'WORKDIR') mkdirSync((cwd = inImage(step.args)), { recursive: true });
  else if (step.op === 'COPY' && !step.args.startsWith('--from')) {
    const [dest, ...sources] = step.args.split(' ').reverse();
    for (const src of sources) cpSync(join(repo, src), dest!.endsWith('/') ? join(cwd, dest!, src.split('/').pop()!) : resolve(cwd, dest!), { recursive: true });
  } else if (step.op === 'ENV') for (const [k, v] of Object.entries(envOf([step]))) imageEnv[k] = inImage(v);
  else if (step.op === 'USER') user = step.args;
  else if (step.op === 'CMD') cmd = JSON.parse(step.args) as string[];
  else if (step.op === 'RUN' && step.stage === last) {
    // The runtime stage makes the volume's folder the bot's own; that is done below, for the user it runs as.
    if (!/^mkdir \/data && chown \S+ \/data$/.test(step.args)) throw new Error(`a runtime RUN this check does not know: ${step.args}`);
  } else if (step.op === 'RUN' && /apt-get/.test(step.args)) {
    const tools = [...step.args.matchAll(/install[^&]*/g)].flatMap((m) => m[0].split(' ').filter((w) => w && !w.startsWith('-') && w !== 'install'));
    const missing = tools.filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
    check(`build tools the image installs are on this machine (${tools.join(', ')})`, missing.length === 0, missing.join(', '));
  } else if (step.op === 'RUN') {
    console.log(`... RUN ${step.args}`);
    const r = spawnSync('sh', ['-c', step.args], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`RUN ${step.args} failed (exit ${r.status})`);
  }
}
console.log(`built in ${((Date.now() - started) / 1000).toFixed(0)} s in ${tmp}`);

// --- who the bot runs as, and its volume --------------------------------------------------------
/** The image's user where this machine has it, else nobody: what matters is that it is not root. */
const runAs = [user.split(':')[0]!, 'nobody'].map((name) => ({ name, ids: ['-u', '-g'].map((f) => spawnSync('id', [f, name], { encoding: 'utf8' }).stdout.trim()) })).find((u) => u.ids.every((id) => /^\d+$/.test(id)))!;
const [uid, gid] = runAs.ids.map(Number) as [number, number];
check(`the bot runs as a user other than root (${user} in the image, ${runAs.name} here)`, user !== 'root' && uid !== 0);
for (const dir of ['data', 'home']) {
  mkdirSync(join(tmp, dir), { recursive: true });
  chownSync(join(tmp, dir), uid, gid);
}

/** A copy of .env.example as the admin's .env, read by `docker run --env-file`. */
const envFile = dockerEnvFile(readFileSync(join(repo, '.env.example'), 'utf8'));
const containerEnv = (over: Record<string, string>) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(tmp, 'home'), ...imageEnv, ...envFile, ...over });

interface Run {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}
function start(args: string[], env: Record<string, string>): Run {
  const [bin, ...rest] = args;
  const child = spawn(bin === 'node' ? process.execPath : bin!, rest, { cwd: join(tmp, 'app'), env: containerEnv(env), uid, gid, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((done) => child.once('exit', (code) => done({ code, at: Date.now() })));
  return { child, stderr: () => stderr, exited };
}
async function exitWithin(run: Run, ms: number) {
  const late = new Promise<undefined>((done) => setTimeout(() => done(undefined), ms).unref());
  const r = await Promise.race([run.exited, late]);
  if (!r) run.child.kill('SIGKILL');
  return r;
}
const until = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
};

// 1. --env-file leaves the image's own settings to the image.
const config = loadConfig(containerEnv({}));
check('with .env.example as --env-file, the database is in the volume', config.db === join(tmp, 'data', 'comfyoom.db'), config.db);
check("with .env.example as --env-file, /healthz is on the image's port and interface", config.http?.port === Number(imageEnv['COMFYOOM_HTTP_PORT']) && config.http?.host === '0.0.0.0', JSON.stringify(config.http));
check('no value in .env.example holds a comment', Object.values(envFile).every((v) => !v.includes('#')));

// 2. No chat token: one sentence, and an exit that a restart policy shows.
{
  const run = start(cmd, {});
  const r = await exitWithin(run, 30_000);
  const lines = run.stderr().trim().split('\n');
  check('with no chat token, start exits non-zero', r !== undefined && r.code !== 0, `exit ${r?.code ?? 'none within 30 s'}`);
  check('with no chat token, start says why in one sentence', lines.length === 1 && /DISCORD_TOKEN|SLACK_BOT_TOKEN/.test(lines[0]!), lines.join(' | '));
}

const slack = await startFakeSlack(fakeOptions);
const slackEnv = { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_APP_TOKEN: APP_TOKEN, SLACK_API_URL: slack.api };
const healthz = async () => {
  try {
    const res = await fetch(`http://127.0.0.1:${config.http!.port}/healthz`);
    return { status: res.status, body: (await res.json()) as { checks: Record<string, string> } };
  } catch {
    return undefined;
  }
};
try {
  // 3. A bot token Slack refuses is said, and ends the bot: it has no platform left.
  slack.fail('auth.test', { error: 'invalid_auth' });
  {
    const run = start(cmd, slackEnv);
    const r = await exitWithin(run, 60_000);
    check('with a bot token Slack refuses, start exits non-zero', r !== undefined && r.code !== 0, `exit ${r?.code ?? 'none within 60 s'}`);
    check('with a bot token Slack refuses, the log names it', /SLACK_BOT_TOKEN was refused \(invalid_auth\)/.test(run.stderr()));
  }

  // 3 and 4. Not ready until Slack has accepted the token; then SIGTERM while Slack refuses every post.
  slack.reset();
  slack.delay('auth.test', 4_000);
  const run = start(cmd, slackEnv);
  const waiting = await until(healthz, (h) => h !== undefined);
  check('/healthz is 503 naming Slack while Slack has not accepted the bot token', waiting?.status === 503 && waiting.body.checks['slack'] !== 'ok', JSON.stringify(waiting));
  const ready = await until(healthz, (h) => h?.status === 200);
  check('/healthz is 200 once Slack has accepted it', ready?.status === 200, JSON.stringify(ready));

  for (const method of ['chat.postMessage', 'chat.postEphemeral']) slack.fail(method, { status: 429, retryAfter: 30 }, { times: 1_000 });
  await slack.envelope('slash_commands', slashPayload(slack, ALICE, sample('cf-0214').text));
  await until(async () => slack.calls.some((c) => c.method === 'chat.postMessage'), Boolean);
  const signalled = Date.now();
  run.child.kill('SIGTERM');
  const r = await exitWithin(run, 10_000);
  check('SIGTERM while Slack answers every post with a 429 ends the bot with 0', r?.code === 0, `exit ${r?.code ?? 'none within 10 s'}`);
  check('... within 5 s', r !== undefined && r.at - signalled < 5_000, r ? `${r.at - signalled} ms` : '');
  const dbFile = join(tmp, 'data', 'comfyoom.db');
  const db = existsSync(dbFile) ? new Database(dbFile, { readonly: true }) : undefined;
  const events = db ? (db.prepare('SELECT type FROM events ORDER BY seq').all() as { type: string }[]).map((e) => e.type) : [];
  db?.close();
  check('the case it could not post is stored, in the volume, by the bot user', events.join(',') === 'opened,offered' && statSync(dbFile).uid === uid, events.join(','));
} finally {
  await slack.close();
}

// 5. What a Docker-only admin runs to register the Discord commands.
{
  const run = start(['npm', 'run', '-s', 'register-commands'], {});
  const r = await exitWithin(run, 60_000);
  check('register-commands runs from the image (here: says DISCORD_TOKEN is not set)', r?.code === 1 && /DISCORD_TOKEN is not set/.test(run.stderr()), run.stderr().trim().split('\n').at(-1));
}

rmSync(tmp, { recursive: true, force: true });
console.log(`\n${failures.length ? `FAIL: ${failures.length} of the checks` : 'ok: every check'}`);
process.exit(failures.length ? 1 : 0);
