// Per-server settings from chat (/comfyoom-config), through the real discord.js client: each
// server's admins set its helper role, watched and opted-out channels, digest channel and
// language; the environment's values hold where they set nothing, and one server's choices never
// reach another.
import { afterEach, describe, expect, it } from 'vitest';
import { COMMAND } from '../../src/adapters/discord/commands.ts';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { snowflake, type Call } from './fake-discord.ts';
import { ALICE, BOB, bodyOf, callback, GUILD, HELP, interaction, original, postIn, say, setup, slash, statsCommand, textOf, until, WATCHED, type Common, type Harness } from './harness.ts';

let h: Harness;
afterEach(async () => {
  await h.close();
});

const OTHER = '1100000000000000090';
const OTHER_HELP = '1100000000000000091';
const ROLE_A = '1400000000000000011';
const ROLE_ENV = '1400000000000000012';
// A bare console log, with no words of its user's: the place's language decides.
const OOM = onNvidia(sample('cf-0118').text);
const replyTo = (id: string) => (c: Call) => c.method === 'POST' && c.body?.message_reference?.message_id === id;

/** `/comfyoom-config <sub>` or `<group> <sub>`, with a channel, role or string option. */
function config(h: Harness, path: string[], o: { channel?: string; role?: string; language?: string; setting?: string } = {}, c: Common = {}) {
  const leaf = [
    ...(o.channel ? [{ name: 'channel', type: 7, value: o.channel }] : []),
    ...(o.role ? [{ name: 'role', type: 8, value: o.role }] : []),
    ...(o.language ? [{ name: 'language', type: 3, value: o.language }] : []),
    ...(o.setting ? [{ name: 'setting', type: 3, value: o.setting }] : []),
  ];
  const sub = { name: path.at(-1)!, type: 1, options: leaf };
  const options = path.length === 2 ? [{ name: path[0]!, type: 2, options: [sub] }] : [sub];
  const resolved = {
    ...(o.channel ? { channels: { [o.channel]: { id: o.channel, type: 0, name: 'c', permissions: '0' } } } : {}),
    ...(o.role ? { roles: { [o.role]: { id: o.role, name: 'helpers', permissions: '0', position: 1, color: 0, hoist: false, managed: false, mentionable: true, flags: 0 } } } : {}),
  };
  const p = interaction(h, 2, { id: snowflake(), name: COMMAND.config, type: 1, options, resolved }, { admin: true, ...c });
  h.fake.interact(p);
  return p;
}

/** The answer to an interaction, replied at once or deferred and edited. */
async function answer(h: Harness, p: { id: string; token: string }): Promise<string> {
  const first = await h.fake.waitFor(callback(p));
  if (first.body.type !== 5) return textOf(first);
  return textOf(await h.fake.waitFor((c) => original(p)(c) && c.method === 'PATCH'));
}

const stored = (h: Harness) => h.db.prepare('SELECT place, settings FROM place_settings').all() as { place: string; settings: string }[];

describe('/comfyoom-config', () => {
  it("refuses members without Manage Server, whatever the server opened the command to, and stores nothing", async () => {
    h = await setup();
    const p = config(h, ['helpers'], { role: ROLE_A }, { admin: false, moderator: true });
    const got = await h.fake.waitFor(callback(p));
    expect(textOf(got)).toMatch(/changed by its admins \(Manage Server\)/);
    expect(bodyOf(got).flags & 64).toBe(64);
    expect(stored(h)).toEqual([]);
  });

  it("gives each server its own helper role: the environment's holds where admins set none", async () => {
    const roles = [ROLE_A, ROLE_ENV].map((id) => ({ id, name: id, permissions: '0', position: 1, color: 0, hoist: false, managed: false, mentionable: true, flags: 0 }));
    h = await setup({ helperRole: ROLE_ENV, roles, guilds: [{ id: OTHER, channels: [{ id: OTHER_HELP, type: 0, name: 'help' }] }] });
    // Who may see stats as a helper: the role of the server asked in, the environment's until its admins choose.
    const statsBy = async (channel: string, role: string) => answer(h, statsCommand(h, undefined, { user: BOB, moderator: false, roles: [role], channel }));
    expect(await statsBy(HELP, ROLE_ENV)).toMatch(/Cases: 0/);
    const set = config(h, ['helpers'], { role: ROLE_A });
    const said = await answer(h, set);
    expect(said).toMatch(/^Saved\./);
    expect(said).toContain(`<@&${ROLE_A}>`);
    expect(bodyOf(await h.fake.waitFor(callback(set))).flags & 64).toBe(64);
    expect(await statsBy(HELP, ROLE_A)).toMatch(/Cases: 0/);
    expect(await statsBy(HELP, ROLE_ENV)).toMatch(/Stats are for this server's moderators/);
    // The other server's members are not helpers for holding a role id this server chose.
    expect(await statsBy(OTHER_HELP, ROLE_A)).toMatch(/Stats are for this server's moderators/);
    expect(stored(h).map((r) => r.place)).toEqual([GUILD]);
  });

  it('watches a channel, speaks the language chosen, and moves a channel to opt-out, where it starts nothing', async () => {
    h = await setup();
    expect(await answer(h, config(h, ['watch', 'add'], { channel: HELP }))).toMatch(new RegExp(`Watched channels.*: <#${HELP}>$`, 'm'));
    const first = say(h, HELP, BOB, OOM);
    expect(textOf(await h.fake.waitFor(replyTo(first.id)))).toMatch(/looks like a ComfyUI out-of-memory error/);

    // A message has no locale: the server's language holds when the words do not tell.
    expect(await answer(h, config(h, ['language'], { language: 'zh' }))).toMatch(/Language when .*: Chinese \(Simplified\)$/m);
    const second = say(h, HELP, ALICE, OOM);
    expect(textOf(await h.fake.waitFor(replyTo(second.id)))).toMatch(/这看起来是 ComfyUI 的内存不足错误/);

    const moved = await answer(h, config(h, ['opt-out', 'add'], { channel: HELP }));
    expect(moved).toMatch(/Watched channels.*: none$/m);
    expect(moved).toMatch(new RegExp(`Channels where I start nothing.*: <#${HELP}>$`, 'm'));
    const refused = slash(h, { log: OOM, channel: HELP });
    const note = await h.fake.waitFor(callback(refused));
    expect(textOf(note)).toMatch(/admins turned me off here/);
    expect(bodyOf(note).flags & 64).toBe(64);
    // Elsewhere it still works; the mention in the opted-out channel gets no answer, and no case opened there.
    const mention = say(h, HELP, BOB, `<@1100000000000000001> ${OOM}`);
    const elsewhere = slash(h, { log: OOM, channel: WATCHED });
    await h.fake.waitFor((c) => original(elsewhere)(c) && c.method === 'PATCH');
    expect(h.fake.calls.filter(replyTo(mention.id))).toHaveLength(0);
    expect(h.db.prepare('SELECT channel FROM cases').all()).not.toContainEqual({ channel: HELP });

    // Kept in the database: a restart keeps them; reset gives the bot's defaults back.
    await h.restart();
    expect(await answer(h, config(h, ['show']))).toMatch(/Language when .*: Chinese \(Simplified\)$/m);
    const reset = await answer(h, config(h, ['reset']));
    expect(reset).toMatch(/Language when .*: automatic .* \(default\)$/m);
    expect(reset).toMatch(/Channels where I start nothing.*: none \(default\)$/m);
  });

  it('posts the weekly digest in the channel each server chose, in its language', async () => {
    h = await setup({ guilds: [{ id: OTHER, channels: [{ id: OTHER_HELP, type: 0, name: 'help' }] }] });
    await answer(h, config(h, ['digest'], { channel: WATCHED }));
    await answer(h, config(h, ['language'], { language: 'zh' }));
    await h.bot.digest!();
    const posted = await h.fake.waitFor(postIn(WATCHED));
    expect(textOf(posted)).toMatch(/[\u4e00-\u9fff]/);
    await until(() => h.fake.calls.some((c) => postIn(WATCHED)(c) && c.body?.attachments?.length));
    // Nothing for the other server, which chose no channel (and the bot has no default one).
    expect(h.fake.calls.filter(postIn(OTHER_HELP))).toHaveLength(0);
    // Once a week: a second round posts nothing more.
    const before = h.fake.calls.filter(postIn(WATCHED)).length;
    await h.bot.digest!();
    expect(h.fake.calls.filter(postIn(WATCHED))).toHaveLength(before);
  });
});
