// A PostgreSQL server that goes away under a running bot or chat, and servers that were never
// there: each is told in one sentence that says whether the answer was kept, never a stack trace.
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { storeProblem } from '../../src/store/errors.ts';
import { openPostgres } from '../../src/store/postgres.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { sample } from '../helpers/corpus.ts';
import { startPostgres, type RunningPostgres } from '../helpers/postgres.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { startFakeSlack } from '../slack/fake-slack.ts';
import { ALICE as SLACK_ALICE, clickPayload, fakeOptions, form, interactive, post, slackText, slashPayload, startBot, until as slackUntil } from '../slack/harness.ts';
import { customIds, messageFrom, postIn, press, setup, slash, threadFrom, until, HELP, ALICE, webhook, bodyOf, type Harness } from '../discord/harness.ts';

const bin = fileURLToPath(new URL('../../bin/comfyoom.mjs', import.meta.url));
const STACK = /^\s+at /m;
const unavailable = inject('postgresUnavailable');

/** Until the bot has sent nothing for a moment: what follows a post (buttons swapped, thread stored) is done. */
async function settle(h: Harness): Promise<void> {
  for (let n = -1; n !== h.fake.calls.length; await new Promise((r) => setTimeout(r, 300))) n = h.fake.calls.length;
}

/** `comfyoom stats` against a database URL: its exit code and what it wrote. */
function statsWith(url: string) {
  const r = spawnSync(process.execPath, [bin, 'stats'], { env: { ...process.env, COMFYOOM_DATABASE_URL: url }, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stderr: r.stderr.replace(/^\(node:\d+\) Warning[\s\S]*?\n(?=comfyoom:)/, '') };
}

describe('a wrong COMFYOOM_DATABASE_URL', () => {
  let silent: Server;
  beforeAll(async () => {
    // Accepts connections and never answers: a host that drops packets, as a firewall does.
    silent = createServer(() => undefined).listen(0, '127.0.0.1');
    await new Promise((r) => silent.once('listening', r));
  });
  afterAll(() => new Promise<void>((r) => silent.close(() => r())));

  it('a server that never answers is one sentence', { timeout: 60_000 }, () => {
    const r = statsWith(`postgres://u:p@127.0.0.1:${(silent.address() as AddressInfo).port}/comfyoom`);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^comfyoom: the PostgreSQL server postgres:\/\/u@127\.0\.0\.1:\d+\/comfyoom did not answer in time: check the host and port/);
    expect(r.stderr).not.toMatch(STACK);
  });

  it('a malformed IPv6 host is one sentence saying how to write it', () => {
    const r = statsWith('postgres://u:p@[::1:5432/comfyoom');
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(/^comfyoom: COMFYOOM_DATABASE_URL is not a valid URL: write it as postgres:\/\/user:password@host:5432\/database, an IPv6 host in brackets/);
    expect(r.stderr).not.toMatch(STACK);
  });

  it.skipIf(!!unavailable)('sslmode=require against a server without TLS is one sentence', () => {
    const url = new URL(inject('postgresUrl'));
    url.searchParams.set('sslmode', 'require');
    const r = statsWith(url.toString());
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/comfyoom: the PostgreSQL server .* does not accept TLS, but COMFYOOM_DATABASE_URL asks for it \(sslmode\)/);
    expect(r.stderr).not.toMatch(STACK);
  });
});

/** A new schema on the server, and the URL of a store kept in it. */
async function schemaOn(server: RunningPostgres, name: string): Promise<URL> {
  const admin = await openPostgres(server.url);
  await admin.db.schema.createSchema(name).execute();
  await admin.close();
  const url = new URL(server.url);
  url.searchParams.set('options', `-c search_path=${name}`);
  return url;
}

describe.skipIf(!!unavailable)('the PostgreSQL server crashes and comes back', () => {
  let server: RunningPostgres;
  beforeAll(async () => {
    server = await startPostgres(['-c', 'fsync=off']);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('a transaction waiting between two statements when the server goes away fails in a sentence, and nothing else is thrown', { timeout: 120_000 }, async () => {
    const db = await openPostgres(server.url);
    let crashed!: () => void;
    const serverGone = new Promise<void>((r) => (crashed = r));
    let inside!: () => void;
    const begun = new Promise<void>((r) => (inside = r));
    const tx = db.transaction(async (t) => {
      await sql`SELECT 1`.execute(t);
      inside();
      await serverGone;
      await sql`SELECT 1`.execute(t);
    });
    const failed = tx.then(() => undefined, (e: unknown) => e);
    await begun;
    // Unhandled, the checked-out connection's error event would end the process (vitest reports it).
    await server.crash();
    crashed();
    expect(storeProblem(await failed, db.name)?.message).toMatch(/PostgreSQL server .*(ended before it answered|ECONNREFUSED)/);
    await server.start();
    await db.close();
  });

  it('in a terminal chat: one sentence, the answer not kept, and the same answer taken once the server is back', { timeout: 120_000 }, async () => {
    const url = await schemaOn(server, 'terminal');

    const chat = spawn(process.execPath, [bin, 'chat'], { env: { ...process.env, COMFYOOM_DATABASE_URL: url.toString() }, stdio: ['pipe', 'pipe', 'pipe'] });
    let said = '';
    chat.stdout.on('data', (d) => (said += d));
    chat.stderr.on('data', (d) => (said += d));
    const saying = async (what: RegExp) => {
      for (const t0 = Date.now(); !what.test(said); await new Promise((r) => setTimeout(r, 50))) {
        if (Date.now() - t0 > 60_000) throw new Error(`never said ${what}; said:\n${said}`);
      }
    };
    try {
      chat.stdin.write(`${onNvidia(sample('cf-0214').text).split('\n').filter((l) => l.trim()).join('\n')}\n\n`);
      await saying(/Step 1 of/);
      await server.crash();
      chat.stdin.write('skip\n');
      await saying(/this was not saved/);
      expect(said).toMatch(/comfyoom: the connection to the PostgreSQL server .* ended before it answered|comfyoom: cannot reach the PostgreSQL server .* \(ECONNREFUSED\)/);
      expect(said).not.toMatch(STACK);
      expect(said).not.toMatch(/Step 2 of/);
      await server.start();
      chat.stdin.write('skip\n');
      await saying(/Step 2 of/);
      chat.stdin.end('quit\n');
      // One line was not kept: a script running the chat must learn it from the exit code.
      expect(await new Promise((r) => chat.once('exit', r))).toBe(1);
    } finally {
      chat.kill();
    }
    const db = await openPostgres(url.toString());
    const store = new CaseStore(db);
    const [row] = (await db.db.selectFrom('cases').select('id').execute()) as { id: string }[];
    expect((await store.records(row!.id)).filter((r) => r.type === 'answered')).toHaveLength(1);
    await db.close();
  });

  it('on Discord: a button pressed while it is down is answered privately, saying nothing was saved', { timeout: 120_000 }, async () => {
    const url = await schemaOn(server, 'discord');
    const sql = await openPostgres(url.toString());
    const h = await setup({ sql });
    try {
      slash(h, { log: onNvidia(sample('cf-0214').text) });
      const thread = await h.fake.waitFor((c) => threadFrom(HELP)(c) && c.status === 200);
      const step = await h.fake.waitFor(postIn(thread.response.id));
      const caseId = (await h.store.lastOpen('discord', ALICE.id))!;
      await until(async () => (await h.store.get(caseId))?.row.thread === thread.response.id);
      await settle(h);
      await server.crash();
      const p = press(h, messageFrom(step), customIds(step).find((id) => id.endsWith(':s'))!);
      const note = await h.fake.waitFor((c) => (c.path.endsWith('/callback') && c.path.includes(p.id)) || (webhook(p)(c) && c.method === 'POST'));
      expect(JSON.stringify(bodyOf(note))).toMatch(/My database failed just now, so this was not saved/);
      expect(bodyOf(note).flags & 64).toBe(64);
      expect(h.logs.join("\n")).toMatch(/the PostgreSQL server .*(ended before it answered|ECONNREFUSED)/);
      await server.start();
      const again = press(h, messageFrom(step), customIds(step).find((id) => id.endsWith(':s'))!);
      await h.fake.waitFor((c) => webhook(again)(c) && c.method === 'POST' && /Step 2 of/.test(JSON.stringify(c.body)));
      expect((await h.store.records(caseId)).filter((r) => r.type === 'answered')).toHaveLength(1);
    } finally {
      await h.close();
      await sql.close();
    }
  });

  it('on Slack: a button clicked while it is down is answered privately, saying nothing was saved', { timeout: 120_000 }, async () => {
    const url = await schemaOn(server, 'slack');
    const sql = await openPostgres(url.toString());
    const fake = await startFakeSlack(fakeOptions);
    const bot = await startBot(fake, { sql });
    try {
      await post(bot, form(slashPayload(fake, SLACK_ALICE, slackText(onNvidia(sample('cf-0214').text)))), 'form');
      const posts = () => fake.of('chat.postMessage');
      await slackUntil(() => posts().length >= 2, 'the first step');
      await slackUntil(async () => (await bot.store.caseInThread('slack', posts()[0]!.result.ts as string)) !== undefined, 'the case thread stored');
      await server.crash();
      expect((await post(bot, interactive(clickPayload(fake, posts()[1]!, 'Skip', SLACK_ALICE)), 'form')).status).toBe(200);
      const note = await fake.waitForResponse();
      expect(JSON.stringify(note.body)).toMatch(/My database failed just now, so this was not saved/);
      expect(note.body.response_type).toBe('ephemeral');
      expect(bot.log.errors().join('\n')).toMatch(/slack: button failed: .*PostgreSQL server .*(ended before it answered|ECONNREFUSED)/);
      await server.start();
      await post(bot, interactive(clickPayload(fake, posts()[1]!, 'Skip', SLACK_ALICE)), 'form');
      await slackUntil(() => posts().some((c) => /Step 2 of/.test(JSON.stringify(c.args.blocks))), 'step 2');
    } finally {
      await bot.stop();
      await fake.close();
      await sql.close();
    }
  });
});
