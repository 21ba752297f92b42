// Help channels are edited and tidied: a message edited to hold a log is read as if just sent, and
// when the message that opened a case is deleted, the case stops and the diagnosis quoting it goes.
import { afterEach, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { ALICE, messageFrom, postIn, press, say, setup, threadFrom, until, webhook, WATCHED, type Harness } from './harness.ts';

let h: Harness;
afterEach(async () => {
  await h.close();
});

const replyTo = (id: string) => (c: { body: any; method: string }) => c.method === 'POST' && c.body?.message_reference?.message_id === id;
const LOG = onNvidia(sample('cf-0214').text);

it('reads a message edited to hold a log as if just sent, and nothing for an edit of words or a second edit', async () => {
  h = await setup({ watchChannels: [WATCHED] });
  const asked = say(h, WATCHED, ALICE, 'my workflow keeps crashing, any idea?');
  h.fake.edit(asked.id, 'my workflow keeps crashing, any idea? (typo fixed)');
  await new Promise((r) => setTimeout(r, 500));
  expect(h.fake.calls.filter(replyTo(asked.id))).toHaveLength(0);

  h.fake.edit(asked.id, `my workflow keeps crashing:\n${LOG}`);
  const offer = await h.fake.waitFor(replyTo(asked.id));
  expect(offer.body.components[0].components[0].custom_id).toBe(`coomw:${asked.id}:${ALICE.id}`);
  // Edited again with the log still in it: no second offer.
  h.fake.edit(asked.id, `my workflow keeps crashing (SDXL):\n${LOG}`);
  await new Promise((r) => setTimeout(r, 500));
  expect(h.fake.calls.filter(replyTo(asked.id))).toHaveLength(1);
});

it('stops the case when the message it was opened from is deleted, and takes down the diagnosis quoting it', async () => {
  h = await setup({ watchChannels: [WATCHED] });
  const oom = say(h, WATCHED, ALICE, LOG);
  const offer = messageFrom(await h.fake.waitFor(replyTo(oom.id)));
  const click = press(h, offer, offer.components[0].components[0].custom_id as string);
  const diagnosis = await h.fake.waitFor((c) => webhook(click)(c) && c.method === 'POST');
  const thread = (await h.fake.waitFor(threadFrom(WATCHED))).response.id as string;
  await h.fake.waitFor(postIn(thread));
  const caseId = (await h.store.lastOpen('discord', ALICE.id))!;
  await until(async () => (await h.store.get(caseId))?.row.thread === thread);

  h.fake.remove(oom.id);
  await h.fake.waitFor((c) => c.method === 'DELETE' && c.path === `/channels/${WATCHED}/messages/${diagnosis.response.id}`);
  expect((await h.store.get(caseId))!.row.status).toBe('cancelled');
  // A deleted message that opened nothing changes nothing.
  const chat = say(h, WATCHED, ALICE, 'thanks all');
  const before = h.fake.calls.length;
  h.fake.remove(chat.id);
  await new Promise((r) => setTimeout(r, 300));
  expect(h.fake.calls.slice(before).filter((c) => c.method !== 'GET')).toEqual([]);
});
