// A new post in a watched forum without a log gets one note on how to get the log, with a button
// that opens the form for it; a post with a log gets the usual offer, and later messages nothing.
import { afterEach, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { addThread, ALICE, BOB, callback, messageFrom, press, say, setup, type Harness } from './harness.ts';

let h: Harness;
afterEach(async () => {
  await h.close();
});

const FORUM = '1100000000000000077';
const replyTo = (id: string) => (c: { body: any; method: string }) => c.method === 'POST' && c.body?.message_reference?.message_id === id;

it('greets a new forum post without a log with how to get it and a "Start troubleshooting" button that opens the form', async () => {
  h = await setup({ watchChannels: [FORUM], channels: [{ id: FORUM, type: 15, name: 'help-forum' }] });
  const post = addThread(h, FORUM);
  say(h, post, ALICE, 'My workflow crashes every time I queue it, please help', { id: post });
  const note = await h.fake.waitFor(replyTo(post));
  expect(note.body.content).toMatch(/I need its log: copy the console output from ComfyUI's start through the error/);
  expect(note.body.content).toContain('system_stats');
  const start = note.body.components[0].components[0];
  expect(start).toMatchObject({ label: 'Start troubleshooting', custom_id: `cooms:${post}` });

  const pressed = press(h, messageFrom(note), start.custom_id, { channel: post });
  const form = await h.fake.waitFor(callback(pressed));
  expect(form.body.type).toBe(9);

  // Later messages in the post, and a new post with a log, get no note (the latter its usual offer).
  const later = say(h, post, ALICE, 'anyone?');
  const withLog = addThread(h, FORUM, 'OOM with SDXL');
  say(h, withLog, BOB, onNvidia(sample('cf-0214').text), { id: withLog });
  const offer = await h.fake.waitFor(replyTo(withLog));
  expect(offer.body.components[0].components[0].custom_id).toMatch(/^coomw:/);
  expect(h.fake.calls.filter(replyTo(later.id))).toHaveLength(0);
  expect(h.fake.calls.filter((c) => c.method === 'POST' && /I need its log/.test(c.body?.content ?? ''))).toHaveLength(1);
});
