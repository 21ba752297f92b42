// Idle cases are abandoned on a timer and the notice goes to the platform the case lives on.
import { expect, it } from 'vitest';
import { sweepIdle } from '../../src/app/bots.ts';
import type { RunningAdapter } from '../../src/adapters/running.ts';
import { Engine } from '../../src/conversation/engine.ts';
import type { Message } from '../../src/conversation/render.ts';
import { CaseStore, type CaseRow } from '../../src/store/cases.ts';
import { openStore } from '../../src/store/open.ts';
import { describeStores } from '../helpers/stores.ts';
import { kb } from '../helpers/kb.ts';
import { capturedLog } from '../helpers/log.ts';
import { sample } from '../helpers/corpus.ts';

function recording(platform: string, fail = false) {
  const posts: { row: CaseRow; messages: Message[] }[] = [];
  const adapter: RunningAdapter = {
    platform,
    deliver: async (row, messages) => {
      if (fail) throw new Error('429 forever');
      posts.push({ row, messages });
    },
    stop: async () => undefined,
  };
  return { adapter, posts };
}

describeStores('the idle sweep', ({ fresh }) => {
  it('abandons idle cases and tells each one where it lives, surviving a failed post', async () => {
    let clock = 1_000_000;
    const store = new CaseStore(await openStore(await fresh()));
    const engine = new Engine({ kb, store, now: () => clock, idleMs: 60_000 });
    const onDiscord = (await engine.open({ platform: 'discord', channel: 'c1', user: 'a' }, sample('cf-0214').text))[0]!.caseId!;
    await store.setThread(onDiscord, 't1');
    const onSlack = (await engine.open({ platform: 'slack', channel: 'C1', user: 'b' }, sample('cf-0009').text))[0]!.caseId!;
    const discord = recording('discord');
    const slack = recording('slack', true);
    const { log } = capturedLog();

    expect(await sweepIdle(engine, store, [discord.adapter, slack.adapter], log)).toBe(0);
    clock += 120_000;
    expect(await sweepIdle(engine, store, [discord.adapter, slack.adapter], log)).toBe(1);
    expect(discord.posts).toHaveLength(1);
    expect(discord.posts[0]!.row).toMatchObject({ id: onDiscord, thread: 't1', status: 'abandoned' });
    expect(discord.posts[0]!.messages[0]!.blocks[0]!.text).toMatch(/closed after a long time/);
    expect((await store.get(onSlack))!.row.status).toBe('abandoned');
  });

  it('posts the notices of a large sweep a few at a time, each case once, a failed post stopping none of the others', async () => {
    let clock = 1_000_000;
    const store = new CaseStore(await openStore(await fresh()));
    const engine = new Engine({ kb, store, now: () => clock, idleMs: 60_000 });
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await engine.open({ platform: 'discord', channel: `c${i}`, user: `u${i}` }, sample('cf-0214').text))[0]!.caseId!);
    const posted: string[] = [];
    let inFlight = 0;
    let most = 0;
    const adapter: RunningAdapter = {
      platform: 'discord',
      deliver: async (row) => {
        most = Math.max(most, ++inFlight);
        // A round trip to the platform: long enough for the next posts to start meanwhile.
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        if (row.channel === 'c7') throw new Error('Missing Access');
        posted.push(row.id);
      },
      stop: async () => undefined,
    };
    const { log, lines } = capturedLog();
    clock += 120_000;

    expect(await sweepIdle(engine, store, [adapter], log)).toBe(29);
    expect(posted.toSorted()).toEqual(ids.filter((_, i) => i !== 7).toSorted());
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
    expect(lines().filter((l) => l.msg === 'could not post the idle notice').map((l) => l['caseId'])).toEqual([ids[7]]);
    expect(lines().find((l) => l.msg === 'idle cases closed')).toMatchObject({ swept: 30, delivered: 29 });
  });

  it("leaves another platform's idle cases to a process that can tell their users", async () => {
    let clock = 1_000_000;
    const store = new CaseStore(await openStore(await fresh()));
    const engine = new Engine({ kb, store, now: () => clock, idleMs: 60_000 });
    const onDiscord = (await engine.open({ platform: 'discord', channel: 'c1', user: 'a' }, sample('cf-0214').text))[0]!.caseId!;
    const onSlack = (await engine.open({ platform: 'slack', channel: 'C1', user: 'b' }, sample('cf-0009').text))[0]!.caseId!;
    const inTerminal = (await engine.open({ platform: 'terminal', channel: 'terminal', user: 'local:c' }, sample('cf-0009').text))[0]!.caseId!;
    const discord = recording('discord');
    const { log } = capturedLog();
    clock += 120_000;

    // A Discord-only bot (Slack runs on another machine, the terminal on the same database).
    expect(await sweepIdle(engine, store, [discord.adapter], log)).toBe(1);
    expect(discord.posts.map((p) => p.row.id)).toEqual([onDiscord]);
    expect((await store.get(onSlack))!.row.status).toBe('open');
    expect((await store.get(inTerminal))!.row.status).toBe('open');

    // The terminal, when it starts, closes its own and says so there.
    const swept = await engine.sweep(['terminal']);
    expect(swept.map((s) => s.caseId)).toEqual([inTerminal]);
    expect((await store.get(onSlack))!.row.status).toBe('open');
  });
});
