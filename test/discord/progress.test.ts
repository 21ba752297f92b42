// A large file sent to the bot takes a while to read: Discord shows the bot typing within a second,
// before its answer, and nothing of the sort for a short message or in a channel it only watches.
import { afterEach, expect, it } from 'vitest';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { snowflake } from './fake-discord.ts';
import { ALICE, HELP, postIn, say, setup, slash, threadFrom, until, WATCHED, type Harness } from './harness.ts';

let h: Harness;
afterEach(async () => {
  await h.close();
});

const typingIn = (channel: string) => h.fake.calls.filter((c) => c.method === 'POST' && c.path === `/channels/${channel}/typing`);

it('shows the bot typing within a second of a large log sent to it, before the answer', async () => {
  h = await setup({ watchChannels: [WATCHED] });
  slash(h, { log: onNvidia(sample('cf-0214').text) });
  const thread = (await h.fake.waitFor((c) => threadFrom(HELP)(c) && c.status === 200)).response.id as string;
  await h.fake.waitFor(postIn(thread));

  const big = `${'Prompt executed in 3.21 seconds\n'.repeat(12_000)}${onNvidia(sample('cf-0009').text)}`;
  expect(big.length).toBeGreaterThan(256 * 1024);
  const url = h.fake.serveFile('big/comfyui.log', big);
  const from = h.fake.calls.length;
  const sentAt = Date.now();
  say(h, thread, ALICE, '', { attachments: [{ id: snowflake(), filename: 'comfyui.log', size: big.length, url, proxy_url: url, content_type: 'text/plain; charset=utf-8' }] });
  await until(() => typingIn(thread).length > 0);
  const typing = typingIn(thread)[0]!;
  expect(typing.at - sentAt).toBeLessThan(1000);
  const answer = await h.fake.waitFor(postIn(thread), { from });
  expect(h.fake.calls.indexOf(typing)).toBeLessThan(h.fake.calls.indexOf(answer));

  // A short message, and a large file in a channel the bot only watches, show nothing.
  say(h, thread, ALICE, 'still OOM');
  const url2 = h.fake.serveFile('big/other.log', big);
  say(h, WATCHED, ALICE, '', { attachments: [{ id: snowflake(), filename: 'other.log', size: big.length, url: url2, proxy_url: url2, content_type: 'text/plain; charset=utf-8' }] });
  await new Promise((r) => setTimeout(r, 1500));
  expect(typingIn(thread)).toHaveLength(1);
  expect(typingIn(WATCHED)).toHaveLength(0);
});
