// Places' settings: what holds (the admins' choices over the bot's defaults), what a change makes
// of them, Slack's words for them, and the store behind them on SQLite and PostgreSQL.
import { afterEach, describe, expect, it } from 'vitest';
import { applyChange, effective, isOptedOut, isWatched, readStored, type Defaults } from '../../src/settings/place.ts';
import { Settings } from '../../src/settings/settings.ts';
import { settingsText } from '../../src/settings/text.ts';
import { parseConfig } from '../../src/adapters/slack/config.ts';
import { SettingsStore } from '../../src/store/settings.ts';
import { openStore } from '../../src/store/open.ts';
import type { Sql } from '../../src/store/sql.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { Engine } from '../../src/conversation/engine.ts';
import { buttonId } from '../../src/conversation/render.ts';
import { kb } from '../helpers/kb.ts';
import { sample } from '../helpers/corpus.ts';
import { describeStores } from '../helpers/stores.ts';

const ENV: Defaults = { helpers: 'R-env', watch: ['c1'], digest: 'd-env', language: 'zh' };

describe('what holds in a place', () => {
  it("takes the bot's defaults for what the admins left unset, and null turns a default off", () => {
    expect(effective({}, ENV)).toEqual({ helpers: 'R-env', watch: ['c1'], digest: 'd-env', language: 'zh', optOut: [], own: [] });
    expect(effective({ helpers: 'R-a', digest: null, language: null }, ENV)).toEqual({ helpers: 'R-a', watch: ['c1'], optOut: [], own: ['helpers', 'digest', 'language'] });
  });

  it('keeps a channel in one list at most, starts lists from what holds, and resets one key or all', () => {
    const added = applyChange({}, { kind: 'add', key: 'watch', channel: 'c2' }, ENV);
    expect(added).toEqual({ watch: ['c1', 'c2'] });
    const moved = applyChange(added, { kind: 'add', key: 'optOut', channel: 'c1' }, ENV);
    expect(moved).toEqual({ watch: ['c2'], optOut: ['c1'] });
    expect(applyChange(moved, { kind: 'add', key: 'watch', channel: 'c1' }, ENV)).toEqual({ watch: ['c2', 'c1'], optOut: [] });
    expect(applyChange(moved, { kind: 'remove', key: 'watch', channel: 'c2' }, ENV)).toEqual({ watch: [], optOut: ['c1'] });
    expect(applyChange(moved, { kind: 'reset', key: 'watch' }, ENV)).toEqual({ optOut: ['c1'] });
    expect(applyChange(moved, { kind: 'reset' }, ENV)).toEqual({});
  });

  it('covers the threads of a watched or opted-out channel', () => {
    const s = effective({ watch: ['forum'], optOut: ['quiet'] });
    expect(isWatched(s, 'post', 'forum')).toBe(true);
    expect(isWatched(s, 'forum')).toBe(true);
    expect(isWatched(s, 'other', 'x')).toBe(false);
    expect(isOptedOut(s, 'thread', 'quiet')).toBe(true);
    expect(isOptedOut(s, undefined)).toBe(false);
  });

  it('reads a stored row that no longer parses as unset, not as a crash', () => {
    expect(readStored('{"watch": "not a list"}')).toEqual({});
    expect(readStored('{"unknown": 1}')).toEqual({});
    expect(readStored('not json')).toEqual({});
    expect(readStored(undefined)).toEqual({});
  });

  it('says which settings are the bot’s defaults, in both languages', () => {
    const m = { channel: (id: string) => `#${id}`, helpers: (id: string) => `@${id}` };
    const en = settingsText(effective({ watch: ['c2'] }, ENV), 'en', m, { saved: true });
    expect(en.split('\n')).toEqual([
      'Saved.',
      'ComfyOOM settings here:',
      '• Helpers, pinged once when a case runs out of steps: @R-env (default)',
      '• Watched channels, where an out-of-memory error posted gets an offer of help: #c2',
      '• Weekly digest for moderators: #d-env (default)',
      '• Language when a user’s words and settings do not tell: Chinese (Simplified) (default)',
      '• Channels where I start nothing (cases already open there go on): none (default)',
    ]);
    expect(settingsText(effective({}), 'zh', m)).toMatch(/关注的频道.*：无（默认）/);
  });
});

describe("Slack's /comfyoom config words", () => {
  it.each([
    ['', { show: true }],
    ['show', { show: true }],
    ['helpers <!subteam^S0GROUP|@helpers>', { change: { kind: 'set', key: 'helpers', value: 'S0GROUP' } }],
    ['helpers none', { change: { kind: 'set', key: 'helpers', value: null } }],
    ['watch add <#C0HELP|help>', { change: { kind: 'add', key: 'watch', channel: 'C0HELP' } }],
    ['opt-out remove C0QUIET', { change: { kind: 'remove', key: 'optOut', channel: 'C0QUIET' } }],
    ['静默 添加 <#C0QUIET>', { change: { kind: 'add', key: 'optOut', channel: 'C0QUIET' } }],
    ['digest <#G0MODS|mods>', { change: { kind: 'set', key: 'digest', value: 'G0MODS' } }],
    ['digest off', { change: { kind: 'set', key: 'digest', value: null } }],
    ['language zh', { change: { kind: 'set', key: 'language', value: 'zh' } }],
    ['language auto', { change: { kind: 'set', key: 'language', value: null } }],
    ['reset', { change: { kind: 'reset' } }],
    ['reset opt-out', { change: { kind: 'reset', key: 'optOut' } }],
    ['watch add #help', undefined],
    ['helpers <#C0HELP>', undefined],
    ['language fr', undefined],
    ['reset everything', undefined],
    ['watch add <#C0A> <#C0B>', undefined],
    ['colour blue', undefined],
  ])('%j', (words, want) => {
    expect(parseConfig(words)).toEqual(want);
  });
});

describeStores('settings in the store', (kind) => {
  const open: Sql[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });
  const fresh = async () => {
    const where = await kind.fresh();
    const a = await openStore(where);
    const b = await openStore(where);
    open.push(a, b);
    return [a, b] as const;
  };

  it('keeps both of two admins’ changes made at once from two processes, and each sees the other’s once its cache expires', async () => {
    const [a, b] = await fresh();
    let now = 0;
    const one = new Settings(new SettingsStore(a), {}, () => now);
    const two = new Settings(new SettingsStore(b), {}, () => now);
    expect((await two.of('discord', 'g1')).watch).toEqual([]);
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).change('discord', 'g1', { kind: 'add', key: 'watch', channel: `c${i}` })));
    // Read afresh: each process's cache holds its own last write for a while.
    expect([...(await new Settings(new SettingsStore(a)).of('discord', 'g1')).watch].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `c${i}`).sort());
    await one.change('discord', 'g1', { kind: 'set', key: 'language', value: 'zh' });
    expect((await two.of('discord', 'g1')).language).toBeUndefined();
    now += 31_000;
    expect((await two.of('discord', 'g1')).language).toBe('zh');
    expect((await two.places('discord')).map((p) => p.place)).toEqual(['g1']);
    expect(await two.places('slack')).toEqual([]);
  });

  it("names each server's own helpers in its hand-over, the bot's default where the admins chose none", async () => {
    const [a] = await fresh();
    const settings = new Settings(new SettingsStore(a));
    settings.setDefaults('discord', { helpers: 'R-env' });
    const engine = new Engine({ kb, store: new CaseStore(a), settings });
    await settings.change('discord', 'g1', { kind: 'set', key: 'helpers', value: 'R-g1' });
    const handOver = async (server: string) => {
      const [diagnosis, ...rest] = await engine.open({ platform: 'discord', server, channel: 'c', user: `u-${server}` }, sample('cf-0069').text);
      const caseId = diagnosis!.caseId!;
      let out = rest;
      for (let guard = 0; guard < 12 && !out.some((m) => m.pingHelpers); guard++) {
        const s = (await engine.state(caseId))!;
        out = await engine.press(buttonId(caseId, s.offer, 's'), { platform: 'discord', server, user: `u-${server}` });
      }
      return out.find((m) => m.pingHelpers);
    };
    expect((await handOver('g1'))?.helpers).toBe('R-g1');
    expect((await handOver('g2'))?.helpers).toBe('R-env');
  });
});
