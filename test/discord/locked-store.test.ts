// Another process holds the database's write lock while people press buttons and send commands:
// the bot stays responsive (its event loop never waits for the lock), acknowledges every
// interaction within Discord's 3 s, and stores every answer and case once the lock is free.
import { afterEach, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { holdWriteLock, longestStall } from '../helpers/lock-holder.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { ALICE, BOB, callback, customIds, HELP, messageFrom, MOD, postIn, press, setup, slash, threadFrom, until, webhook, type Harness } from './harness.ts';

let h: Harness;
afterEach(async () => {
  await h.close();
});

const LOCK_HELD_MS = 6000;

it('stays responsive while another process holds the write lock, acknowledges within 3 s and loses nothing', { timeout: 60_000 }, async () => {
  h = await setup();
  slash(h, { log: onNvidia(sample('cf-0214').text) });
  const thread = await h.fake.waitFor((c) => threadFrom(HELP)(c) && c.status === 200);
  const step = await h.fake.waitFor(postIn(thread.response.id));
  const caseId = (await h.store.lastOpen('discord', ALICE.id))!;

  const lock = await holdWriteLock(h.dbPath);
  const sent: { id: string; token: string }[] = [];
  const stall = await longestStall(async () => {
    try {
      sent.push(press(h, messageFrom(step), customIds(step).find((id) => id.endsWith(':s'))!));
      sent.push(slash(h, { log: onNvidia(sample('cf-0009').text), user: BOB }));
      sent.push(slash(h, { log: onNvidia(sample('cf-0016').text), user: MOD }));
      await new Promise((r) => setTimeout(r, LOCK_HELD_MS));
    } finally {
      await lock.release();
    }
  });

  // Every interaction was acknowledged, none refused as too late (Discord's 10062).
  for (const p of sent) {
    const acks = h.fake.calls.filter(callback(p));
    expect(acks.map((c) => c.status)).toEqual([acks[0]!.status]);
    expect(acks[0]!.status).toBeLessThan(300);
  }
  expect(stall).toBeLessThan(1500);

  // Once the lock is free, the answer and both cases are stored, and their messages go out.
  await until(async () => (await h.store.records(caseId)).some((r) => r.type === 'answered'));
  await until(async () => !!(await h.store.lastOpen('discord', BOB.id)) && !!(await h.store.lastOpen('discord', MOD.id)));
  await until(() => sent.slice(1).every((p) => h.fake.calls.some((c) => webhook(p, '/messages/@original')(c) && c.method === 'PATCH' && c.status === 200)));
  expect(h.logs.filter((l) => l.includes('failed'))).toEqual([]);
});
