// Discord over REST alone, as the shards' manager posts for its housekeeping: no gateway session,
// so no server is cached, and an idle notice still reaches its case's thread and the weekly digest
// its channel.
import { afterEach, describe, expect, it } from 'vitest';
import { restDiscord } from '../../src/adapters/discord/bot.ts';
import { sample } from '../helpers/corpus.ts';
import { ALICE, GUILD, HELP, TOKEN, addThread, postIn, setup, textOf, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => h?.close());

describe('Discord over REST only', () => {
  it('posts in a thread and the weekly digest without a gateway session', async () => {
    h = await setup();
    const caseId = (await h.engine.open({ platform: 'discord', server: GUILD, channel: HELP, user: ALICE.id }, sample('cf-0003').text))[0]!.caseId!;
    const thread = addThread(h, HELP);
    await h.engine.setThread(caseId, thread);
    const identified = h.fake.identified.length;
    const logs: string[] = [];
    const courier = restDiscord({ config: { token: TOKEN, watchChannels: [], messageContent: true, solvedTag: 'Solved', digestChannel: HELP }, engine: h.engine, api: h.fake.api, log: (what) => logs.push(what) });
    try {
      expect(courier.client.guilds.cache.size).toBe(0);
      await courier.deliver((await h.store.get(caseId))!.row, [{ blocks: [{ kind: 'text', text: 'still there?' }] }]);
      expect(textOf(await h.fake.waitFor(postIn(thread)))).toBe('still there?');

      await courier.digest!();
      const digest = await h.fake.waitFor(postIn(HELP));
      expect(digest.files.map((f) => f.name)).toEqual(['comfyoom-week.png']);
      expect(h.fake.calls.some((c) => c.method === 'GET' && c.path === `/guilds/${GUILD}`)).toBe(true);
      expect(h.fake.identified.length).toBe(identified);
      expect(logs).toEqual([]);
    } finally {
      await courier.stop();
    }
  });
});
