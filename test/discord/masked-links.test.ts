// Values that came from the user (a GPU's name in /system_stats, a model's file name in a
// workflow, words typed at a question) are shown as text: a masked link in them is no link in the
// public diagnosis, on Discord and on Slack.
import { afterEach, expect, it } from 'vitest';
import { toBlockKit } from '../../src/adapters/slack/blocks.ts';
import { HELP, postIn, setup, slash, threadFrom, type Harness } from './harness.ts';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const LINK = '[Free Nitro](https://evil.example/claim)';
const paste = [
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 24.00 GiB',
  JSON.stringify({ system: { os: 'nt', comfyui_version: '0.3.40' }, devices: [{ name: `cuda:0 ${LINK} : cudaMallocAsync`, type: 'cuda', vram_total: 25769803776, vram_free: 1000000 }] }),
  JSON.stringify({ nodes: [{ id: 4, type: 'CheckpointLoaderSimple', widgets_values: [`${LINK}.safetensors`] }, { id: 3, type: 'KSampler', widgets_values: [1, 'fixed', 20, 7, 'euler', 'normal', 1] }] }),
].join('\n');

const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);

/** A masked link Discord would render: [text](url) whose brackets no backslash escapes. */
const MASKED = /(?<!\\)\[[^\]\n]*(?<!\\)\]\((?:<)?https?:/;

it('shows a masked link from /system_stats and a workflow as text in the public diagnosis, on Discord and on Slack', async () => {
  h = await setup();
  slash(h, { log: paste });
  const thread = await h.fake.waitFor((c) => threadFrom(HELP)(c) && c.status === 200);
  await h.fake.waitFor(postIn(thread.response.id));
  // Every text the bot sent, its code blocks (where Discord renders no link) left out.
  const texts = h.fake.calls.filter((c) => c.method !== 'GET').flatMap((c) => strings(c.body)).map((t) => t.replace(/```[\s\S]*?```/g, ''));
  expect(texts.join('\n')).toContain('evil.example/claim');
  expect(texts.filter((t) => MASKED.test(t))).toEqual([]);

  // The same diagnosis as Slack blocks: Slack's links are <url|text>, which its escaping of < forbids.
  const caseId = (await h.store.lastOpen('discord', '1200000000000000001'))!;
  const slack = JSON.stringify((await h.engine.current(caseId)).map((m) => toBlockKit(m)));
  expect(slack).not.toMatch(/<https?:\/\/evil\.example[^>]*\|/);
});
