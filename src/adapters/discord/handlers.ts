// Discord events to engine calls, engine messages back to Discord. Every interaction is answered
// (deferred first when the work may take longer than Discord's 3 s), every failure is caught and
// logged: the engine has stored the case before the first REST call, so a failed post loses nothing.
// Which case a message belongs to, whether it may open one, who may answer: the engine decides.
import {
  ButtonStyle,
  ChannelType,
  ComponentType,
  DiscordAPIError,
  LabelBuilder,
  MessageFlags,
  ModalBuilder,
  PermissionFlagsBits,
  Routes,
  TextInputBuilder,
  TextInputStyle,
  ThreadAutoArchiveDuration,
  type Attachment as DiscordAttachment,
  type ButtonInteraction,
  type Channel,
  type ChatInputCommandInteraction,
  type Client,
  type Interaction,
  type Message as DiscordMessage,
  type PartialMessage,
  type MessageContextMenuCommandInteraction,
  type ModalSubmitInteraction,
  type PermissionsBitField,
  type SendableChannels,
  type ThreadChannel,
} from 'discord.js';
import { langFor, type Engine, type Origin } from '../../conversation/engine.ts';
import { DRAFT_PREFIX, FORGET_PREFIX, isStanding, parseButtonId, showButton, type Message } from '../../conversation/render.ts';
import type { Attachment, Inbound } from '../../ingest/ingest.ts';
import type { CaseRow } from '../../store/cases.ts';
import { isLang, type Lang } from '../../i18n/messages.ts';
import { COMMAND, CONFIG } from './commands.ts';
import { isWatched, type Change, type PlaceSettings, type SettingKey } from '../../settings/place.ts';
import { settingsText, type Mentions } from '../../settings/text.ts';
import { C } from '../../conversation/strings.ts';
import { answeredRows, codePayload, codePayloads, NO_PINGS, retiredRows, textPayload, threadName, toPayload, type Payload } from './payload.ts';
import { D, say } from './strings.ts';

export type Log = (what: string, err?: unknown) => void;

export interface HandlerDeps {
  client: Client;
  engine: Engine;
  /** Without the Message Content intent, messages that do not mention the bot arrive empty. */
  messageContent: boolean;
  /** The forum tag (name or id) a resolved case's forum post gets. */
  solvedTag: string;
  /** How long a resolved case's thread stays open for a last word. */
  archiveAfterMs: number;
  log: Log;
}

/** Custom ids of the adapter's own components (the engine's buttons start with "coom"). */
export const OFFER_PREFIX = 'coomw:';
/** The onboarding note's button: opens the form for a log. */
export const START_PREFIX = 'cooms:';
export const MODAL_PREFIX = 'coom-modal:';
export const MODAL_INPUT = 'log';
export const MODAL_MAX = 4000;

const DOWNLOAD_TIMEOUT_MS = 20_000;

const PERMISSION_ERRORS = new Set([50001, 50013]);
const isPermissionError = (e: unknown) => e instanceof DiscordAPIError && (e.status === 403 || PERMISSION_ERRORS.has(Number(e.code)));

const ephemeral = (p: Payload) => ({ ...p, flags: MessageFlags.Ephemeral as const });

/** The `language` option, when the user chose one, wins over both locale and paste. */
const chosenLang = (language: string | null | undefined): Partial<Origin> => (isLang(language) ? { lang: language } : {});

export function wrapAttachment(a: Pick<DiscordAttachment, 'name' | 'contentType' | 'size' | 'url'>): Attachment {
  return {
    name: a.name,
    ...(a.contentType ? { contentType: a.contentType } : {}),
    size: a.size,
    read: async () => {
      const res = await fetch(a.url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
      if (!res.ok) throw new Error(`downloading ${a.name}: HTTP ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    },
  };
}

/** Where a new case gets posted and how; interactions and plain messages differ only here. */
interface Surface {
  /** Posts the case's first message; the case's thread grows from it. */
  first(p: Payload): Promise<{ id: string }>;
  /** Posts where the case runs when it has no thread of its own. */
  inChannel(p: Payload): Promise<unknown>;
  /** Only the acting user sees it (interactions); a plain reply for messages. */
  privately(p: Payload): Promise<unknown>;
  /** Nothing public came out: remove the "thinking…" placeholder, if there is one. */
  nothingPublic?(): Promise<unknown>;
  /** The channel the case starts in; its own thread grows from the first message when it is a text channel. */
  channel: Channel | null;
  /** The bot's permissions there when Discord tells us (interactions); otherwise we try and see. */
  perms?: Readonly<PermissionsBitField> | null;
  /** Where a case goes when nothing can be posted where it was asked for: its owner's DMs. */
  owner?: { dm(): Promise<{ id: string; send(p: Payload): Promise<{ id: string; channelId: string }> }>; react(emoji: string): Promise<unknown> };
}

/** A message posted with buttons, by reference: where to take them off again. */
const ref = (channel: string, message: string) => `${channel}/${message}`;

/** Acknowledged by then, whatever the store is doing: Discord drops an interaction not acknowledged within 3 s. */
const ACK_WITHIN_MS = 2000;
const LATE = Symbol('late');

/**
 * The engine's answer, with the interaction acknowledged (`ack`) first when the answer is late: the
 * store may be waiting for another process's lock. Callers answer with edits and follow-ups then.
 */
async function inTime<T>(work: Promise<T>, ack: () => Promise<unknown>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => (timer = setTimeout(resolve, ACK_WITHIN_MS, LATE)));
  const first = await Promise.race([work, late]).finally(() => clearTimeout(timer));
  if (first !== LATE) return first as T;
  await ack();
  return work;
}

export class Handlers {
  private readonly client: Client;
  private readonly engine: Engine;
  /** Each interaction's place settings, read as it arrives (who moderates depends on them). */
  private readonly places = new WeakMap<Interaction, PlaceSettings>();
  private readonly log: Log;

  constructor(private readonly deps: HandlerDeps) {
    this.client = deps.client;
    this.engine = deps.engine;
    this.log = deps.log;
  }

  // ---- interactions -------------------------------------------------------------------------

  async interaction(i: Interaction): Promise<void> {
    try {
      // Read in its turn (see Engine.turn): a burst of hundreds is acknowledged a few dozen a turn, the event loop free between.
      await this.engine.turn('ack');
      this.places.set(i, await this.engine.settings.of('discord', i.guildId ?? undefined));
      if (i.isChatInputCommand() && i.commandName === COMMAND.diagnose) await this.onDiagnose(i);
      else if (i.isChatInputCommand() && i.commandName === COMMAND.config) await this.onConfig(i);
      else if (i.isChatInputCommand() && i.commandName === COMMAND.stats) await this.onStats(i);
      else if (i.isChatInputCommand() && i.commandName === COMMAND.relabel) await this.onRelabel(i);
      else if (i.isChatInputCommand() && i.commandName === COMMAND.forget) await this.onForgetCommand(i);
      else if (i.isMessageContextMenuCommand() && i.commandName === COMMAND.contextMenu) await this.onContextMenu(i);
      else if (i.isModalSubmit() && i.customId.startsWith(MODAL_PREFIX)) await this.onModal(i);
      else if (i.isButton() && i.customId.startsWith(OFFER_PREFIX)) await this.onOffer(i);
      else if (i.isButton() && i.customId.startsWith(START_PREFIX)) await i.showModal(this.modal(i.id, null, i.locale));
      else if (i.isButton() && i.customId.startsWith(DRAFT_PREFIX)) await this.onDraft(i);
      else if (i.isButton() && i.customId.startsWith(FORGET_PREFIX)) await this.onForget(i);
      else if (i.isButton()) await this.onPress(i);
    } catch (e) {
      const lang = langFor(i.locale, '');
      const store = this.engine.storeFailure(e, lang);
      this.log(`interaction ${i.id} failed`, store?.problem ?? e);
      await this.reportFailure(i, store?.message.blocks).catch(this.giveUp(`could not report the failure of ${i.id}`));
    }
  }

  /**
   * Never leaves an interaction unanswered, nor without a way on: the note carries "Show current
   * step". It says what failed: the store (`said`: nothing was saved) or Discord (the case is saved).
   */
  private async reportFailure(i: Interaction, said?: Message['blocks']): Promise<void> {
    if (!i.isRepliable()) return;
    const caseId = i.isButton() ? parseButtonId(i.customId)?.caseId : undefined;
    // The case's language when the store can tell it: it may be what just failed.
    const lang = (caseId && (await this.engine.state(caseId).catch(() => undefined))?.lang) || langFor(i.locale, '');
    const p = toPayload({ blocks: said ?? [{ kind: 'text', text: say(D.failed, lang) }], ...(caseId ? { buttons: [showButton(caseId, lang)] } : {}) });
    // A deferred reply shows "thinking…" until it is edited; a component's deferral has no reply of its own.
    await (!i.deferred && !i.replied ? i.reply(ephemeral(p)) : i.deferred && !i.replied && !i.isMessageComponent() ? i.editReply(p) : i.followUp(ephemeral(p)));
  }

  /** A moderator of the server the interaction comes from: Manage Messages, or its helper role. */
  private mayModerate(i: Interaction): boolean {
    if (i.memberPermissions?.has(PermissionFlagsBits.ManageMessages)) return true;
    const role = i.inGuild() ? this.places.get(i)?.helpers : undefined;
    const roles = i.member?.roles;
    return !!role && (Array.isArray(roles) ? roles.includes(role) : !!roles?.cache.has(role));
  }

  private origin(i: Interaction, over: Partial<Origin> = {}): Origin {
    const dm = !i.inGuild();
    const thread = i.channel?.isThread() || dm ? i.channelId : undefined;
    return {
      platform: 'discord',
      ...(i.guildId ? { server: i.guildId } : {}),
      ...(i.channelId ? { channel: i.channelId } : {}),
      ...(thread ? { thread } : {}),
      ...(dm ? { direct: true } : {}),
      user: i.user.id,
      locale: i.locale,
      moderator: this.mayModerate(i),
      ...over,
    };
  }

  private async onDiagnose(i: ChatInputCommandInteraction): Promise<void> {
    const language = i.options.getString('language');
    const text = i.options.getString('log') ?? '';
    const file = i.options.getAttachment('file');
    if (await this.refusedHere(i)) return;
    if (!text.trim() && !file) {
      // A modal must be the first response, so it is shown before anything else.
      await i.showModal(this.modal(i.id, language, i.locale));
      return;
    }
    await this.diagnose(i, this.origin(i, { ...chosenLang(language), source: `i:${i.id}` }), { text, attachments: file ? [wrapAttachment(file)] : [] });
  }

  /** The modal's id carries the command's, so that one command opens one case however often its form is sent. */
  private modal(commandId: string, language: string | null, locale: string | undefined): ModalBuilder {
    const lang = isLang(language) ? language : langFor(locale, '');
    const input = new TextInputBuilder()
      .setCustomId(MODAL_INPUT)
      .setStyle(TextInputStyle.Paragraph)
      .setMaxLength(MODAL_MAX)
      .setRequired(true)
      .setPlaceholder(say(D.modalPlaceholder, lang));
    return new ModalBuilder()
      .setCustomId(`${MODAL_PREFIX}${language ?? ''}:${commandId}`)
      .setTitle(say(D.modalTitle, lang))
      .addLabelComponents(new LabelBuilder().setLabel(say(D.modalLabel, lang)).setTextInputComponent(input));
  }

  private async onModal(i: ModalSubmitInteraction): Promise<void> {
    const [language = '', commandId = i.id] = i.customId.slice(MODAL_PREFIX.length).split(':');
    await this.diagnose(i, this.origin(i, { ...chosenLang(language), source: `i:${commandId}` }), { text: i.fields.getTextInputValue(MODAL_INPUT) });
  }

  private async onContextMenu(i: MessageContextMenuCommandInteraction): Promise<void> {
    const target = i.targetMessage;
    if (await this.refusedHere(i)) return;
    if (target.author.id === this.client.user?.id) {
      await i.reply(ephemeral(textPayload(say(D.noTraceback, langFor(i.locale, '')))));
      return;
    }
    await this.diagnose(i, { ...this.ownerOrigin(i, target.author), source: target.id }, inboundOf(target));
  }

  /**
   * The case belongs to whoever posted the traceback (they run the workflow and answer the
   * steps), unless a bot or webhook posted it; the language follows the invoker only when that
   * is the owner, otherwise the text decides.
   */
  private ownerOrigin(i: Interaction, author: { id: string; bot: boolean }): Origin {
    if (author.bot || author.id === i.user.id) return this.origin(i);
    return this.origin(i, { user: author.id, locale: undefined, moderator: false });
  }

  /** Opens a case from an interaction: defer (interaction replies need no channel permission), engine, then post. */
  private async diagnose(i: ChatInputCommandInteraction | ModalSubmitInteraction | MessageContextMenuCommandInteraction, origin: Origin, inbound: Inbound): Promise<void> {
    await i.deferReply();
    // Acknowledged: the work waits its turn, so a burst of commands is acknowledged first (see Engine.turn).
    await this.engine.turn();
    const messages = await this.engine.receive(origin, inbound);
    await this.startCase(messages, {
      first: (p) => i.editReply(p),
      inChannel: (p) => i.followUp(p),
      privately: (p) => i.followUp(ephemeral(p)),
      nothingPublic: () => i.deleteReply(),
      channel: i.channel,
      perms: knownPerms(i),
    });
  }

  private async onPress(i: ButtonInteraction): Promise<void> {
    const out = await inTime(this.engine.press(i.customId, this.origin(i)), () => i.deferUpdate());
    const visible = out.filter((m) => !m.ephemeral);
    const notes = out.filter((m) => m.ephemeral);
    if (!visible.length) {
      // A stranger's, stale or doubled click: only the clicker hears about it, nothing changes.
      const [first, ...more] = notes;
      if (!first) return void (i.deferred || (await i.deferUpdate()));
      await (i.deferred ? i.followUp(ephemeral(this.payload(first))) : i.reply(ephemeral(this.payload(first))));
      for (const n of more) await i.followUp(ephemeral(this.payload(n)));
      return;
    }
    // "Show current step" leaves its message as it is; an answer greys the step's buttons, so only the new step is live.
    const answered = { components: answeredRows(i.message.components.map((c) => c.toJSON()), i.customId), allowedMentions: NO_PINGS };
    if ('show' in (parseButtonId(i.customId) ?? {})) await (i.deferred || i.deferUpdate());
    else await (i.deferred ? i.editReply(answered) : i.update(answered));
    for (const m of visible) await this.posted(m, await i.followUp(this.payload(m)));
    for (const n of notes) await i.followUp(ephemeral(this.payload(n)));
    await this.closeLoop(visible);
  }

  private async onOffer(i: ButtonInteraction): Promise<void> {
    const [messageId = '', authorId = ''] = i.customId.slice(OFFER_PREFIX.length).split(':');
    const moderator = this.mayModerate(i);
    if (i.user.id !== authorId && !moderator) {
      await i.reply(ephemeral(textPayload(say(C.offerNotYours, langFor(i.locale, '')))));
      return;
    }
    const origin = { ...(authorId === i.user.id ? this.origin(i) : this.origin(i, { user: authorId, locale: undefined, moderator: false })), source: messageId };
    // The offer goes at once, so a second click finds no button (and a doubled one finds the case opened).
    await i.update({ components: [], allowedMentions: NO_PINGS });
    const target = await i.channel?.messages.fetch(messageId).catch(this.giveUp(`cannot fetch offered message ${messageId}`));
    if (!target) {
      await i.followUp(ephemeral(textPayload(say(D.messageGone, langFor(i.locale, '')))));
      return;
    }
    const messages = await this.engine.receive(origin, inboundOf(target));
    await this.startCase(messages, {
      first: (p) => i.followUp(p),
      inChannel: (p) => i.followUp(p),
      privately: (p) => i.followUp(ephemeral(p)),
      channel: i.channel,
      perms: knownPerms(i),
    });
  }

  /** "Open my own case": the draft's case starts beside the thread it was posted in (a new thread, or a new forum post). */
  private async onDraft(i: ButtonInteraction): Promise<void> {
    await i.deferReply({ flags: MessageFlags.Ephemeral });
    const messages = await this.engine.openDraft(i.customId, this.origin(i));
    const parent = i.channel?.isThread() ? i.channel.parent : null;
    const [head] = messages.filter((m) => m.opens);
    if (parent?.type === ChannelType.GuildForum && head) {
      const post = await parent.threads.create({ name: threadName(head, 'ComfyOOM'), message: this.payload(head) });
      const rest = messages.filter((m) => m !== head && !m.ephemeral);
      await this.engine.setThread(head.caseId!, post.id);
      for (const m of rest) await this.safely(`posting in forum post ${post.id}`, async () => this.posted(m, await post.send(this.payload(m))));
      await i.editReply(textPayload(`<#${post.id}>`));
      return;
    }
    const where = parent?.isSendable() ? parent : null;
    await this.startCase(messages, {
      first: async (p) => {
        if (!where) throw new Error('no channel to start the case in');
        const sent = await where.send(p);
        await i.editReply(textPayload(sent.url));
        return sent;
      },
      inChannel: (p) => i.followUp(p),
      privately: (p) => i.editReply(p),
      channel: where,
    });
  }

  private async onForgetCommand(i: ChatInputCommandInteraction): Promise<void> {
    const [ask] = await inTime(this.engine.forgetPrompt(this.origin(i)), () => i.deferReply({ flags: MessageFlags.Ephemeral }));
    await (i.deferred ? i.editReply(toPayload(ask!)) : i.reply(ephemeral(toPayload(ask!))));
  }

  /** Acknowledged first: the answer waits for the database file to be rewritten, which takes longer than Discord's 3 s on a large one. */
  private async onForget(i: ButtonInteraction): Promise<void> {
    await i.deferUpdate();
    const [answer] = await this.engine.forget(i.customId, this.origin(i));
    await i.editReply(toPayload(answer!));
  }

  private async onStats(i: ChatInputCommandInteraction): Promise<void> {
    const lang = langFor(i.locale, '');
    // Checked here, not left to the command's default permissions, which a server may open to everyone;
    // a DM has no server, and the stats of every server are nobody's to see.
    if (!i.inGuild() || !this.mayModerate(i)) return void (await i.reply(ephemeral(textPayload(say(D.statsRefused, lang)))));
    await i.deferReply({ flags: MessageFlags.Ephemeral });
    const all = i.options.getBoolean('all') ?? false;
    // A server's moderators see that server's cases, never another's.
    const report = await this.engine.statsReport({ platform: 'discord', ...(i.guildId ? { server: i.guildId } : {}) }, i.options.getString('since') ?? undefined, lang, { all, seeAll: say(D.statsAll, lang) });
    if (report === undefined) return void (await i.editReply(textPayload(say(D.badSince, lang))));
    // The chart goes with the text, privately like it: per entry each step's funnel, and cases per week.
    const chart = { attachment: report.chart, name: 'comfyoom-stats.png' };
    // One screen takes a message or two; everything would take dozens, so it comes as a file, its start shown.
    if (all) return void (await i.editReply({ ...codePayload(report.text), files: [chart, { attachment: Buffer.from(report.text), name: 'comfyoom-stats.txt' }] }));
    const [first, ...more] = codePayloads(report.text);
    await i.editReply({ ...first!, files: [chart] });
    for (const p of more) await i.followUp(ephemeral(p));
  }

  /** A moderator's correction of one of this server's cases; the answer is theirs alone. */
  private async onRelabel(i: ChatInputCommandInteraction): Promise<void> {
    const lang = langFor(i.locale, '');
    const moderator = this.mayModerate(i);
    const scope = { platform: 'discord', ...(i.guildId ? { server: i.guildId } : {}) };
    const { message } = await inTime(this.engine.relabel(i.options.getString('case', true), i.options.getString('entry', true), { actor: i.user.id, moderator, lang, scope }), () =>
      i.deferReply({ flags: MessageFlags.Ephemeral }),
    );
    await (i.deferred ? i.editReply(toPayload(message)) : i.reply(ephemeral(toPayload(message))));
  }

  /**
   * `/comfyoom-config`: a server's settings, shown or changed by its admins (Manage Server). Checked
   * here too, not only by the command's default permissions, which a server may open to everyone.
   */
  private async onConfig(i: ChatInputCommandInteraction): Promise<void> {
    const place = this.places.get(i);
    const lang = langFor(i.locale, '', place?.language);
    if (!i.inGuild() || !i.memberPermissions.has(PermissionFlagsBits.ManageGuild)) return void (await i.reply(ephemeral(textPayload(say(D.configRefused, lang)))));
    const change = configChange(i);
    const now = change ? await inTime(this.engine.settings.change('discord', i.guildId, change), () => i.deferReply({ flags: MessageFlags.Ephemeral })) : place!;
    const p = textPayload(settingsText(now, lang, DISCORD_MENTIONS, { saved: !!change }));
    await (i.deferred ? i.editReply(p) : i.reply(ephemeral(p)));
  }

  /**
   * Where the server's admins turned the bot off, a command or the message menu is refused
   * privately; a case that already runs in a thread there goes on.
   */
  private async refusedHere(i: ChatInputCommandInteraction | MessageContextMenuCommandInteraction): Promise<boolean> {
    const parent = i.channel?.isThread() ? i.channel.parentId : undefined;
    if (!(await this.engine.silencedAt('discord', i.guildId ?? undefined, { channel: i.channelId, parent, ...(parent ? { thread: i.channelId } : {}) }))) return false;
    await i.reply(ephemeral(textPayload(C.optedOut[langFor(i.locale, '', this.places.get(i)?.language)])));
    return true;
  }

  /** Each weekly digest: into the channel each server chose (or the bot's default one), that server's stats only. */
  async postDigests(): Promise<void> {
    const chosen = (await this.engine.settings.places('discord')).filter((p) => p.settings.digest);
    for (const { settings } of chosen) await this.postDigest(settings.digest!);
    const dflt = this.engine.settings.defaultsOf('discord').digest;
    if (dflt && !chosen.some((p) => p.settings.digest === dflt)) await this.postDigest(dflt);
  }

  /** One server's digest, in its language, where it goes only if the server still wants it there. */
  private async postDigest(channelId: string): Promise<void> {
    const channel = await this.client.channels.fetch(channelId, UNCACHED_GUILDS).catch(this.giveUp(`cannot open the digest channel ${channelId}`));
    if (!channel?.isSendable() || !('guildId' in channel) || !channel.guildId) return;
    // Fetched, not read from the cache: a client without a gateway (the shards' manager) has no guilds cached.
    const guild = await this.client.guilds.fetch(channel.guildId).catch(this.giveUp(`cannot read the server of the digest channel ${channelId}`));
    if (!guild) return;
    // The bot's default channel belongs to one server; another that named its own, or none, is not posted there.
    const place = await this.engine.settings.of('discord', guild.id);
    if (place.digest !== channelId) return;
    const digest = await this.engine.weeklyDigest('discord', guild.id, place.language ?? langFor(guild.preferredLocale, ''));
    if (digest) await this.safely(`posting the digest in ${channelId}`, () => (channel as SendableChannels).send({ ...codePayload(digest.text), files: [{ attachment: digest.chart, name: 'comfyoom-week.png' }] }));
  }

  // ---- messages -----------------------------------------------------------------------------

  async message(m: DiscordMessage): Promise<void> {
    let stopTyping = () => {};
    try {
      if (m.author.bot || m.webhookId || m.system) return;
      // A screenshot or a large file takes seconds to read: whoever sent it to the bot sees it typing
      // at once (before its turn comes), until it answers.
      if (this.toMe(m) && this.engine.takesTime(inboundOf(m))) stopTyping = this.keepTyping(m);
      await this.engine.turn();
      if (!m.inGuild()) return await this.onDirect(m);
      const place = await this.engine.settings.of('discord', m.guildId);
      const parent = m.channel.isThread() ? m.channel.parentId : undefined;
      // Where the admins turned the bot off it starts nothing, not even for a mention; its case threads go on.
      if (await this.engine.silencedAt('discord', m.guildId, { channel: m.channelId, parent, ...(parent ? { thread: m.channelId } : {}) })) return;
      if (this.mentionsMe(m)) return await this.onMention(m);
      // Without the intent, other messages arrive without text or files: nothing to read.
      if (!this.deps.messageContent) return;
      const inbound = inboundOf(m);
      if (!inbound.text?.trim() && !inbound.attachments?.length) return;
      const origin = this.messageOrigin(m);
      const out = await this.engine.posted(origin, inbound);
      if (out.length) return await this.postHere(m, out);
      if (isWatched(place, m.channelId, parent) && !(origin.thread && (await this.engine.caseIn('discord', origin.thread)))) await this.maybeOffer(m, origin, inbound, langFor(undefined, inbound.text ?? '', place.language));
    } catch (e) {
      const store = this.engine.storeFailure(e, langFor(undefined, m.content));
      this.log(`message ${m.id} failed`, store?.problem ?? e);
      // Said to whoever spoke to the bot, never to a whole channel.
      if (store && this.toMe(m)) await this.safely(`telling ${m.id} the store failed`, () => m.reply(this.payload(store.message)));
    } finally {
      stopTyping();
    }
  }

  /**
   * An edited message that now holds a log, where it held none, is read as if just sent (a case's
   * owner's new log, a DM, a mention, a watched channel's offer); other edits (Discord resolving a
   * link's embed, a typo fixed in words) change nothing.
   */
  async edited(before: DiscordMessage | PartialMessage, after: DiscordMessage | PartialMessage): Promise<void> {
    try {
      const now = after.partial ? await after.fetch() : after;
      if (now.author.bot || (!before.partial && before.content === now.content)) return;
      const isLog = (m: DiscordMessage | PartialMessage) => this.engine.looksLikeLog(inboundOf(m as DiscordMessage, this.client.user?.id).text ?? '');
      if (!(await isLog(now)) || (!before.partial && (await isLog(before)))) return;
      await this.message(now);
    } catch (e) {
      this.log(`edit of message ${after.id} failed`, e);
    }
  }

  /**
   * A deleted message that opened a case: the case stops, and the diagnosis its thread grew from,
   * which quotes the message, is taken down (the thread keeps the steps).
   */
  async deleted(m: DiscordMessage | PartialMessage): Promise<void> {
    try {
      const gone = await this.engine.sourceDeleted('discord', m.id);
      if (!gone?.channel || !gone.thread || gone.thread === gone.channel) return;
      const channel = await this.client.channels.fetch(gone.channel);
      if (channel?.isTextBased()) await channel.messages.delete(gone.thread);
    } catch (e) {
      this.log(`deletion of message ${m.id} failed`, e);
    }
  }

  /** A message for the bot: in a DM, mentioning it, or in a thread it opened for a case. */
  private toMe(m: DiscordMessage): boolean {
    return !m.inGuild() || this.mentionsMe(m) || (m.channel.isThread() && m.channel.ownerId === this.client.user?.id);
  }

  /** The typing indicator, now and again before Discord's 10 s run out, until the returned stop is called. */
  private keepTyping(m: DiscordMessage): () => void {
    const channel = m.channel;
    if (!('sendTyping' in channel)) return () => {};
    const send = () => void channel.sendTyping().catch(this.giveUp(`cannot show typing in ${channel.id}`));
    send();
    const timer = setInterval(send, 8000);
    return () => clearInterval(timer);
  }

  /** A DM with the bot: every message is for it; the case runs in the DM, as in a thread. */
  private async onDirect(m: DiscordMessage): Promise<void> {
    const origin: Origin = { platform: 'discord', channel: m.channelId, thread: m.channelId, direct: true, user: m.author.id, source: m.id };
    await this.postHere(m, await this.engine.posted(origin, inboundOf(m, this.client.user?.id)));
  }

  /** An explicit <@bot>, or the bot's managed role; a reply that merely pings the bot's own message does not count. */
  private mentionsMe(m: DiscordMessage<true>): boolean {
    return mentionPattern(this.client.user?.id, this.botRole(m)).test(m.content);
  }

  private botRole(m: DiscordMessage<true>): string | undefined {
    return this.client.user ? m.guild.roles.botRoleFor(this.client.user)?.id : undefined;
  }

  private async onMention(m: DiscordMessage<true>): Promise<void> {
    const target = m.reference?.messageId ? await m.fetchReference().catch(this.giveUp(`cannot fetch replied-to message of ${m.id}`)) : m;
    if (!target) {
      await m.reply(textPayload(say(D.messageGone, langFor(undefined, m.content))));
      return;
    }
    if (target.author.id === this.client.user?.id) {
      await m.reply(textPayload(say(D.noTraceback, langFor(undefined, m.content))));
      return;
    }
    const inbound = inboundOf(target, this.client.user?.id, this.botRole(m));
    // Without the intent, a replied-to message comes back empty: say where a log can still be read.
    if (target !== m && !this.deps.messageContent && !inbound.text && !inbound.attachments?.length) {
      await m.reply(textPayload(say(D.unreadable, langFor(undefined, m.content))));
      return;
    }
    const owner = target.author.bot ? m.author : target.author;
    const messages = await this.engine.receive({ ...this.messageOrigin(m, owner.id), source: target.id }, inbound);
    await this.startCase(messages, {
      first: (p) => target.reply(p),
      inChannel: (p) => m.channel.send(p),
      privately: (p) => m.reply(p),
      channel: m.channel,
      owner: { dm: () => owner.createDM(), react: (emoji) => m.react(emoji) },
    });
  }

  private messageOrigin(m: DiscordMessage<true>, user = m.author.id): Origin {
    return { platform: 'discord', server: m.guildId, channel: m.channelId, ...(m.channel.isThread() ? { thread: m.channelId } : {}), user, moderator: false };
  }

  /** Answers a message where it was posted; plain messages cannot be ephemeral, so private notes become a reply. */
  private async postHere(m: DiscordMessage, out: Message[]): Promise<void> {
    for (const msg of out) {
      await (msg.ephemeral ? m.reply(this.payload(msg)) : m.channel.isSendable() ? m.channel.send(this.payload(msg)).then((sent) => this.posted(msg, sent)) : undefined)?.catch(
        this.giveUp(`cannot post in ${m.channelId}${msg.caseId ? ` for case ${msg.caseId}` : ''}`),
      );
    }
    await this.closeLoop(out);
  }

  /** Watch mode: one quiet offer under a real OOM (long pastes arrive as message.txt: read like any log); silence otherwise. */
  private async maybeOffer(m: DiscordMessage<true>, origin: Origin, inbound: Inbound, lang: Lang): Promise<void> {
    if (!(await this.engine.worthOffering(origin, inbound))) {
      // A new forum post without a log: how to get one, and a way in (its first message has the post's id).
      const newPost = m.channel.isThread() && m.channel.parent?.type === ChannelType.GuildForum && m.id === m.channelId;
      if (!newPost) return;
      const start = { type: ComponentType.Button as const, style: ButtonStyle.Primary as const, custom_id: `${START_PREFIX}${m.id}`, label: say(D.startButton, lang) };
      await m.reply({ ...textPayload(say(D.onboard, lang)), components: [{ type: ComponentType.ActionRow, components: [start] }] });
      return;
    }
    const button = { type: ComponentType.Button as const, style: ButtonStyle.Primary as const, custom_id: `${OFFER_PREFIX}${m.id}:${m.author.id}`, label: say(C.watchButton, lang) };
    await m.reply({ ...textPayload(say(C.watchOffer, lang)), components: [{ type: ComponentType.ActionRow, components: [button] }] });
  }

  // ---- posting a case -----------------------------------------------------------------------

  private payload(m: Message): Payload {
    // A note about a case running elsewhere links to its thread.
    const linked = m.goesOnIn ? { ...m, blocks: [...m.blocks, { kind: 'text' as const, text: `<#${m.goesOnIn.thread}>` }] } : m;
    return toPayload(linked);
  }

  /**
   * Posts what the engine said about a case: a new case's diagnosis first, the rest in a thread
   * grown from it. Where the case already runs in a thread (a forum post, a DM) it stays there;
   * where no thread can be made (channel type, permissions, Discord errors) the case continues in
   * the channel, and says so once.
   */
  private async startCase(messages: Message[], s: Surface): Promise<void> {
    const notes = messages.filter((m) => m.ephemeral);
    const [head, ...rest] = messages.filter((m) => !m.ephemeral);
    if (!head) {
      await s.nothingPublic?.();
      for (const n of notes) await s.privately(this.payload(n));
      return;
    }
    const caseId = head.caseId;
    const posted = await s.first(this.payload(head)).catch(this.giveUp(`posting the diagnosis of case ${caseId} failed; trying the channel`));
    if (posted && s.channel) await this.posted(head, { id: posted.id, channelId: s.channel.id });
    for (const n of notes) await this.safely('posting a private note', () => s.privately(this.payload(n)));
    let delivered = 0;
    const inChannel = async (what: string, messages = rest) => {
      for (const m of messages) await this.safely(what, async () => this.posted(m, (await s.inChannel(this.payload(m))) as { id: string; channelId: string }).then(() => delivered++));
      await this.closeLoop(messages);
    };
    // Without its first message there is nothing to grow a thread from; the case goes on in the channel.
    if (!posted) {
      await inChannel('posting in the channel', [head, ...rest]);
      // Nothing could be posted there (no Send Messages): the case moves to its owner's DMs.
      if (!delivered && caseId && s.owner) await this.toOwner(s.owner, caseId, [head, ...rest]);
      return;
    }
    if (!caseId || !head.opens || s.channel?.isThread() || s.channel?.isDMBased()) return inChannel('posting in the thread');
    const thread = await this.openThread(s, posted.id, threadName(head, 'ComfyOOM'));
    if (thread) {
      try {
        const [next, ...later] = rest;
        if (next) await this.posted(next, await thread.send(this.payload(next)));
        await this.engine.setThread(caseId, thread.id);
        for (const m of later) await this.safely(`posting in thread ${thread.id}`, async () => this.posted(m, await thread.send(this.payload(m))));
        return;
      } catch (e) {
        this.log(`cannot post in thread ${thread.id}; case ${caseId} continues in the channel`, e);
      }
    }
    const lang = (await this.engine.state(caseId))?.lang ?? 'en';
    await this.safely('posting the no-thread note', () => s.inChannel(textPayload(say(D.noThread, lang))));
    await inChannel('posting in the channel');
  }

  /**
   * A case asked for where the bot may not post: it runs in its owner's DMs, which say why; where
   * DMs are closed too, a reaction on their message says it, and the case is stopped, since nobody
   * could answer it.
   */
  private async toOwner(owner: NonNullable<Surface['owner']>, caseId: string, messages: Message[]): Promise<void> {
    const lang = (await this.engine.state(caseId))?.lang ?? 'en';
    try {
      const dm = await owner.dm();
      await dm.send(textPayload(say(D.movedToDm, lang)));
      for (const m of messages) await this.posted(m, await dm.send(this.payload(m)));
      await this.engine.setThread(caseId, dm.id);
      await this.closeLoop(messages);
    } catch (e) {
      this.log(`cannot reach the owner of case ${caseId} in DMs either; stopping it`, e);
      await this.engine.withdraw(caseId);
      await this.safely('reacting to say the bot cannot post here', () => owner.react('🔇'));
    }
  }

  private async openThread(s: Surface, messageId: string, name: string): Promise<ThreadChannel | undefined> {
    const channel = s.channel;
    if (channel?.type !== ChannelType.GuildText && channel?.type !== ChannelType.GuildAnnouncement) return undefined;
    if (s.perms && !(s.perms.has(PermissionFlagsBits.CreatePublicThreads) && s.perms.has(PermissionFlagsBits.SendMessagesInThreads))) return undefined;
    try {
      return await channel.threads.create({ name, startMessage: messageId, autoArchiveDuration: ThreadAutoArchiveDuration.OneDay });
    } catch (e) {
      this.log(isPermissionError(e) ? `no permission to open a thread in ${channel.id}` : `opening a thread in ${channel.id} failed`, e);
      return undefined;
    }
  }

  /**
   * A message of a case was posted: when it carries the case's live buttons, the message that
   * carried them before (a step the case has moved past) keeps only "Show current step".
   */
  private async posted(m: Message, sent: { id: string; channelId: string } | undefined): Promise<void> {
    if (!m.caseId || !sent?.id || !m.buttons?.some((b) => !isStanding(b.id))) return;
    const before = await this.engine.swapButtons(m.caseId, ref(sent.channelId, sent.id));
    if (!before || before === ref(sent.channelId, sent.id)) return;
    const [channelId = '', messageId = ''] = before.split('/');
    await this.safely(`taking the old buttons of case ${m.caseId} off`, async () => {
      const old = (await this.client.rest.get(Routes.channelMessage(channelId, messageId))) as { components?: unknown[] };
      await this.client.rest.patch(Routes.channelMessage(channelId, messageId), { body: { components: retiredRows(old.components ?? []) } });
    });
  }

  /**
   * A resolved case closes its loop: a forum post gets the "Solved" tag, and the thread is
   * archived after a short while (time for a thank-you); both need Manage Threads on others' posts.
   */
  private async closeLoop(messages: Message[]): Promise<void> {
    const caseId = messages.find((m) => m.caseId)?.caseId;
    if (!caseId || (await this.engine.state(caseId))?.status !== 'resolved') return;
    const threadId = (await this.engine.place(caseId))?.thread;
    const thread = threadId ? await this.client.channels.fetch(threadId).catch(this.giveUp(`cannot open thread ${threadId}`)) : null;
    if (!thread?.isThread() || thread.archived) return;
    const forum = thread.parent?.type === ChannelType.GuildForum ? thread.parent : undefined;
    const wanted = this.deps.solvedTag.toLowerCase();
    const tag = forum?.availableTags.find((t) => t.id === this.deps.solvedTag || t.name.toLowerCase() === wanted);
    if (tag && !thread.appliedTags.includes(tag.id)) await this.safely(`tagging ${thread.id} solved`, () => thread.setAppliedTags([...thread.appliedTags.slice(0, 4), tag.id]));
    setTimeout(() => void this.safely(`archiving ${thread.id}`, () => thread.setArchived(true, 'case resolved')), this.deps.archiveAfterMs).unref();
  }

  /** A catch handler that logs and yields undefined, for steps the bot can do without. */
  private giveUp(what: string) {
    return (e: unknown): undefined => {
      this.log(what, e);
      return undefined;
    };
  }

  private async safely(what: string, post: () => Promise<unknown>): Promise<void> {
    try {
      await post();
    } catch (e) {
      this.log(what, e);
    }
  }

  /** Posts messages about a case where it lives (its thread, else its channel); see RunningAdapter. */
  async deliver(row: CaseRow, messages: Message[]): Promise<void> {
    const visible = messages.filter((m) => !m.ephemeral);
    for (const id of [row.thread, row.channel]) {
      if (!id || !visible.length) continue;
      const channel = await this.client.channels.fetch(id, UNCACHED_GUILDS).catch(this.giveUp(`cannot open channel ${id} for case ${row.id}`));
      if (!channel?.isSendable()) continue;
      for (const m of visible) await this.safely(`delivering to ${id} for case ${row.id}`, async () => this.posted(m, await (channel as SendableChannels).send(this.payload(m))));
      return;
    }
  }
}

/**
 * Channels of servers the client has not cached are read too: the shards' manager has no gateway,
 * so no server is cached there (discord.js drops such a channel otherwise).
 */
const UNCACHED_GUILDS = { allowUnknownGuild: true } as const;

/** `<@bot>`, `<@!bot>` and the bot's managed role `<@&role>`. */
const mentionPattern = (botId: string | undefined, roleId: string | undefined) =>
  new RegExp([botId && `<@!?${botId}>`, roleId && `<@&${roleId}>`].filter(Boolean).join('|') || '(?!)', 'g');

/** A message's text and files, as the engine reads them; a mention of the bot is not part of the log. */
function inboundOf(m: DiscordMessage, botId?: string, roleId?: string): Inbound {
  const text = botId ? m.content.replace(mentionPattern(botId, roleId), '').trim() : m.content;
  return { text, attachments: [...m.attachments.values()].map(wrapAttachment) };
}

/** Discord tells interactions what the bot may do in the channel; zero means it did not say. */
function knownPerms(i: Interaction): Readonly<PermissionsBitField> | undefined {
  return i.appPermissions && i.appPermissions.bitfield !== 0n ? i.appPermissions : undefined;
}

const DISCORD_MENTIONS: Mentions = { channel: (id) => `<#${id}>`, helpers: (id) => `<@&${id}>` };

/** What a `/comfyoom-config` subcommand changes; undefined for `show`. */
function configChange(i: ChatInputCommandInteraction): Change | undefined {
  const group = i.options.getSubcommandGroup(false);
  const sub = i.options.getSubcommand();
  if (group === CONFIG.watch || group === CONFIG.optOut) {
    const key = group === CONFIG.watch ? 'watch' : 'optOut';
    return { kind: sub === CONFIG.add ? 'add' : 'remove', key, channel: i.options.getChannel('channel', true).id };
  }
  if (sub === CONFIG.helpers) return { kind: 'set', key: 'helpers', value: i.options.getRole('role')?.id ?? null };
  if (sub === CONFIG.digest) return { kind: 'set', key: 'digest', value: i.options.getChannel('channel')?.id ?? null };
  if (sub === CONFIG.language) {
    const v = i.options.getString('language', true);
    return { kind: 'set', key: 'language', value: isLang(v) ? v : null };
  }
  if (sub === CONFIG.reset) {
    const key = i.options.getString('setting') as SettingKey | null;
    return { kind: 'reset', ...(key ? { key } : {}) };
  }
  return undefined;
}
