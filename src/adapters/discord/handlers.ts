// Discord events to engine calls, engine messages back to Discord. Every interaction is answered
// (deferred first when the work may take longer than Discord's 3 s), every failure is caught and
// logged: the engine has stored the case before the first REST call, so a failed post loses nothing.
import {
  ButtonStyle,
  ChannelType,
  ComponentType,
  DiscordAPIError,
  LabelBuilder,
  MessageFlags,
  ModalBuilder,
  PermissionFlagsBits,
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
  type MessageContextMenuCommandInteraction,
  type ModalSubmitInteraction,
  type PermissionsBitField,
  type RepliableInteraction,
  type ThreadChannel,
} from 'discord.js';
import { langFor, langOf, type Engine, type Origin } from '../../conversation/engine.ts';
import type { Message } from '../../conversation/render.ts';
import type { Attachment, Inbound } from '../../ingest/ingest.ts';
import type { CaseRow, CaseStore } from '../../store/cases.ts';
import { computeStats, formatStats, parseSince } from '../../store/stats.ts';
import { COMMAND } from './commands.ts';
import { answeredRows, codePayload, NO_PINGS, textPayload, threadName, toPayload, type Payload } from './payload.ts';
import { D, say } from './strings.ts';

export type Log = (what: string, err?: unknown) => void;

export interface HandlerDeps {
  client: Client;
  engine: Engine;
  store: CaseStore;
  watchChannels: string[];
  log: Log;
}

/** Custom ids of the adapter's own components (the engine's buttons start with "coom:"). */
export const OFFER_PREFIX = 'coomw:';
export const MODAL_PREFIX = 'coom-modal:';
export const MODAL_INPUT = 'log';
export const MODAL_MAX = 4000;

/** Watch mode speaks up only when the classifier is this sure it is an OOM. */
export const WATCH_CONFIDENCE = 0.8;
const DOWNLOAD_TIMEOUT_MS = 20_000;

const LOG_FILE = /\.(txt|log)$/i;

const PERMISSION_ERRORS = new Set([50001, 50013]);
const isPermissionError = (e: unknown) => e instanceof DiscordAPIError && (e.status === 403 || PERMISSION_ERRORS.has(Number(e.code)));

const ephemeral = (p: Payload) => ({ ...p, flags: MessageFlags.Ephemeral as const });

/** The `language` option, when the user chose one, wins over both locale and paste. */
const chosenLang = (language: string | null | undefined): Partial<Origin> => (language === 'zh' || language === 'en' ? { lang: language } : {});

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
  channel: Channel | null;
  /** The bot's permissions there when Discord tells us (interactions); otherwise we try and see. */
  perms?: Readonly<PermissionsBitField> | null;
}

export class Handlers {
  private readonly client: Client;
  private readonly engine: Engine;
  private readonly store: CaseStore;
  private readonly watchChannels: Set<string>;
  private readonly log: Log;

  constructor(deps: HandlerDeps) {
    this.client = deps.client;
    this.engine = deps.engine;
    this.store = deps.store;
    this.watchChannels = new Set(deps.watchChannels);
    this.log = deps.log;
  }

  // ---- interactions -------------------------------------------------------------------------

  async interaction(i: Interaction): Promise<void> {
    try {
      if (i.isChatInputCommand() && i.commandName === COMMAND.diagnose) await this.onDiagnose(i);
      else if (i.isChatInputCommand() && i.commandName === COMMAND.stats) await this.onStats(i);
      else if (i.isMessageContextMenuCommand() && i.commandName === COMMAND.contextMenu) await this.onContextMenu(i);
      else if (i.isModalSubmit() && i.customId.startsWith(MODAL_PREFIX)) await this.onModal(i);
      else if (i.isButton() && i.customId.startsWith(OFFER_PREFIX)) await this.onOffer(i);
      else if (i.isButton()) await this.onPress(i);
    } catch (e) {
      this.log(`interaction ${i.id} failed`, e);
      if (!i.isRepliable()) return;
      // Never leave it unanswered: Discord would show "interaction failed" with no explanation.
      const p = textPayload(say(D.failed, langFor(i.locale, '')));
      // A deferred reply shows "thinking…" until it is edited; a component's deferral has no reply of its own.
      const report = !i.deferred && !i.replied ? i.reply(ephemeral(p)) : i.deferred && !i.replied && !i.isMessageComponent() ? i.editReply(p) : i.followUp(ephemeral(p));
      await report.catch(this.giveUp(`could not report the failure of ${i.id}`));
    }
  }

  private origin(i: Interaction, over: Partial<Origin> = {}): Origin {
    return {
      platform: 'discord',
      ...(i.guildId ? { server: i.guildId } : {}),
      ...(i.channelId ? { channel: i.channelId } : {}),
      user: i.user.id,
      locale: i.locale,
      moderator: i.memberPermissions?.has(PermissionFlagsBits.ManageMessages) ?? false,
      ...over,
    };
  }

  private async onDiagnose(i: ChatInputCommandInteraction): Promise<void> {
    const language = i.options.getString('language');
    const text = i.options.getString('log') ?? '';
    const file = i.options.getAttachment('file');
    if (!text.trim() && !file) {
      // A modal must be the first response, so it is shown before anything else.
      await i.showModal(this.modal(language, i.locale));
      return;
    }
    await this.diagnose(i, this.origin(i, chosenLang(language)), { text, attachments: file ? [wrapAttachment(file)] : [] });
  }

  private modal(language: string | null, locale: string | undefined): ModalBuilder {
    const lang = language === 'zh' || language === 'en' ? language : langFor(locale, '');
    const input = new TextInputBuilder()
      .setCustomId(MODAL_INPUT)
      .setStyle(TextInputStyle.Paragraph)
      .setMaxLength(MODAL_MAX)
      .setRequired(true)
      .setPlaceholder(say(D.modalPlaceholder, lang));
    return new ModalBuilder()
      .setCustomId(`${MODAL_PREFIX}${language ?? ''}`)
      .setTitle(say(D.modalTitle, lang))
      .addLabelComponents(new LabelBuilder().setLabel(say(D.modalLabel, lang)).setTextInputComponent(input));
  }

  private async onModal(i: ModalSubmitInteraction): Promise<void> {
    await this.diagnose(i, this.origin(i, chosenLang(i.customId.slice(MODAL_PREFIX.length))), { text: i.fields.getTextInputValue(MODAL_INPUT) });
  }

  private async onContextMenu(i: MessageContextMenuCommandInteraction): Promise<void> {
    const target = i.targetMessage;
    const inbound = inboundOf(target);
    if (!(await this.isRequestable(inbound))) {
      await i.reply(ephemeral(textPayload(say(D.noTraceback, langFor(i.locale, inbound.text ?? '')))));
      return;
    }
    await this.diagnose(i, this.ownerOrigin(i, target.author), inbound);
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

  /** Opens a case from an interaction: permission check, defer, engine, then post. */
  private async diagnose(i: ChatInputCommandInteraction | ModalSubmitInteraction | MessageContextMenuCommandInteraction, origin: Origin, inbound: Inbound): Promise<void> {
    if (await this.refuseIfMute(i, origin, inbound)) return;
    await i.deferReply();
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

  /** Answers privately, and returns true, when the bot could not take part in the channel. */
  private async refuseIfMute(i: RepliableInteraction, origin: Origin, inbound: Inbound): Promise<boolean> {
    const missing = missingPermissions(i);
    if (!missing.length) return false;
    await i.reply(ephemeral(textPayload(say(D.cannotPost, langOf(origin, inbound.text ?? ''), { perms: missing.join(', ') }))));
    return true;
  }

  private async onPress(i: ButtonInteraction): Promise<void> {
    const out = this.engine.press(i.customId, this.origin(i));
    const visible = out.filter((m) => !m.ephemeral);
    const notes = out.filter((m) => m.ephemeral);
    if (!visible.length) {
      // A stranger's, stale or doubled click: only the clicker hears about it, nothing changes.
      const [first, ...more] = notes;
      if (!first) return void (await i.deferUpdate());
      await i.reply(ephemeral(toPayload(first)));
      for (const n of more) await i.followUp(ephemeral(toPayload(n)));
      return;
    }
    // The answered step keeps its text but its buttons go grey, so only the new step is live.
    await i.update({ components: answeredRows(i.message.components.map((c) => c.toJSON()), i.customId), allowedMentions: NO_PINGS });
    for (const m of visible) await i.followUp(toPayload(m));
    for (const n of notes) await i.followUp(ephemeral(toPayload(n)));
  }

  private async onOffer(i: ButtonInteraction): Promise<void> {
    const [messageId = '', authorId = ''] = i.customId.slice(OFFER_PREFIX.length).split(':');
    const moderator = i.memberPermissions?.has(PermissionFlagsBits.ManageMessages) ?? false;
    if (i.user.id !== authorId && !moderator) {
      await i.reply(ephemeral(textPayload(say(D.offerNotYours, langFor(i.locale, '')))));
      return;
    }
    const origin = authorId === i.user.id ? this.origin(i) : this.origin(i, { user: authorId, locale: undefined, moderator: false });
    if (await this.refuseIfMute(i, origin, {})) return;
    await i.deferUpdate();
    const target = await i.channel?.messages.fetch(messageId).catch(this.giveUp(`cannot fetch offered message ${messageId}`));
    if (!target) {
      await i.followUp(ephemeral(textPayload(say(D.messageGone, langFor(i.locale, '')))));
      return;
    }
    const messages = await this.engine.receive(origin, inboundOf(target));
    if (messages.some((m) => !m.ephemeral)) await i.editReply({ components: [], allowedMentions: NO_PINGS });
    await this.startCase(messages, {
      first: (p) => i.followUp(p),
      inChannel: (p) => i.followUp(p),
      privately: (p) => i.followUp(ephemeral(p)),
      channel: i.channel,
      perms: knownPerms(i),
    });
  }

  private async onStats(i: ChatInputCommandInteraction): Promise<void> {
    await i.deferReply({ flags: MessageFlags.Ephemeral });
    const since = i.options.getString('since');
    let sinceMs: number | undefined;
    try {
      sinceMs = since ? parseSince(since) : undefined;
    } catch {
      await i.editReply(textPayload(say(D.badSince, langFor(i.locale, ''))));
      return;
    }
    const stats = computeStats(this.store.db, sinceMs === undefined ? {} : { sinceMs });
    await i.editReply(codePayload(formatStats(stats)));
  }

  // ---- messages -----------------------------------------------------------------------------

  async message(m: DiscordMessage): Promise<void> {
    try {
      if (m.author.bot || m.webhookId || m.system || !m.inGuild()) return;
      if (this.mentionsMe(m)) return await this.onMention(m);
      const inbound = inboundOf(m);
      if (!inbound.text?.trim() && !inbound.attachments?.length) return;
      const caseId = await this.caseFor(m, inbound);
      if (caseId) return await this.newLog(m, caseId, inbound);
      if (this.isWatched(m.channel)) await this.maybeOffer(m, inbound.text ?? '');
    } catch (e) {
      this.log(`message ${m.id} failed`, e);
    }
  }

  /** An explicit <@bot> in the text; a reply that merely pings the bot's own message does not count. */
  private mentionsMe(m: DiscordMessage): boolean {
    const me = this.client.user?.id;
    return !!me && new RegExp(`<@!?${me}>`).test(m.content);
  }

  private async onMention(m: DiscordMessage<true>): Promise<void> {
    const caseId = !m.reference && m.channel.isThread() ? this.store.caseInThread('discord', m.channelId) : undefined;
    if (caseId) {
      const own = inboundOf(m, this.client.user?.id);
      // "@ComfyOOM" alone in a case thread: the question again (e.g. after a post failed).
      if (!own.text && !own.attachments?.length) return this.postHere(m, this.engine.current(caseId), caseId);
      if (this.engine.state(caseId)?.owner === m.author.id) return this.newLog(m, caseId, own);
    }
    const target = m.reference?.messageId ? await m.fetchReference().catch(this.giveUp(`cannot fetch replied-to message of ${m.id}`)) : m;
    if (!target) {
      await m.reply(textPayload(say(D.messageGone, langFor(undefined, m.content))));
      return;
    }
    const inbound = inboundOf(target, this.client.user?.id);
    if (target.author.id === this.client.user?.id || !(await this.isRequestable(inbound))) {
      await m.reply(textPayload(say(D.noTraceback, langFor(undefined, inbound.text ?? m.content))));
      return;
    }
    const owner = target.author.bot ? m.author : target.author;
    const messages = await this.engine.receive(this.messageOrigin(m, owner.id), inbound);
    await this.startCase(messages, {
      first: (p) => target.reply(p),
      inChannel: (p) => m.channel.send(p),
      privately: (p) => m.reply(p),
      channel: m.channel,
    });
  }

  private messageOrigin(m: DiscordMessage<true>, user = m.author.id): Origin {
    return { platform: 'discord', server: m.guildId, channel: m.channelId, user, moderator: false };
  }

  /**
   * The open case a message adds a log to: in a case's thread, the owner's message when the case
   * asked for a log or a question's answer (the engine tells a typed node's name from chat), or
   * the message looks like a log (chat such as "thanks" must not count as a log, it would close
   * the case); in a channel without a thread, only when the case asked for a log.
   */
  private async caseFor(m: DiscordMessage<true>, inbound: Inbound): Promise<string | undefined> {
    if (m.channel.isThread()) {
      const caseId = this.store.caseInThread('discord', m.channelId);
      const state = caseId ? this.engine.state(caseId) : undefined;
      if (!caseId || state?.owner !== m.author.id) return undefined;
      const logFile = inbound.attachments?.some((a) => LOG_FILE.test(a.name)) ?? false;
      return state.awaiting === 'log' || state.awaiting === 'question' || logFile || (await this.engine.looksLikeLog(inbound.text ?? '')) ? caseId : undefined;
    }
    const caseId = this.engine.lastOpenCase(this.messageOrigin(m));
    const found = caseId ? this.store.get(caseId) : undefined;
    return found && !found.row.thread && found.state.awaiting === 'log' ? caseId : undefined;
  }

  private async newLog(m: DiscordMessage<true>, caseId: string, inbound: Inbound): Promise<void> {
    await this.postHere(m, await this.engine.receive(this.messageOrigin(m), inbound, caseId), caseId);
  }

  /** Answers a message where it was posted; plain messages cannot be ephemeral, so private notes become a reply. */
  private async postHere(m: DiscordMessage<true>, out: Message[], caseId: string): Promise<void> {
    for (const msg of out) {
      await (msg.ephemeral ? m.reply(toPayload(msg)) : m.channel.send(toPayload(msg))).catch(this.giveUp(`cannot post in ${m.channelId} for case ${caseId}`));
    }
  }

  private isWatched(channel: Channel): boolean {
    if (this.watchChannels.has(channel.id)) return true;
    // Watching a forum (or a text channel) covers the threads in it.
    return channel.isThread() && !!channel.parentId && this.watchChannels.has(channel.parentId);
  }

  /** Watch mode: one quiet offer under a real OOM; silence for chat and for other errors. */
  private async maybeOffer(m: DiscordMessage<true>, text: string): Promise<void> {
    const seen = await this.engine.peek(text);
    if (!seen.oom || seen.confidence < WATCH_CONFIDENCE) return;
    const lang = langFor(undefined, text);
    const button = { type: ComponentType.Button as const, style: ButtonStyle.Primary as const, custom_id: `${OFFER_PREFIX}${m.id}:${m.author.id}`, label: say(D.watchButton, lang) };
    await m.reply({ ...textPayload(say(D.watchOffer, lang)), components: [{ type: ComponentType.ActionRow, components: [button] }] });
  }


  /** What an explicit request may diagnose: attached files (read later), or error-shaped text. */
  private async isRequestable(inbound: Inbound): Promise<boolean> {
    return !!inbound.attachments?.length || (await this.engine.looksLikeLog(inbound.text ?? ''));
  }

  // ---- posting a case -----------------------------------------------------------------------

  /**
   * Posts a new case: the diagnosis first, then the rest in a thread grown from it. When no thread
   * can be made (channel type, permissions, Discord errors) the case continues in the channel,
   * and says so once.
   */
  private async startCase(messages: Message[], s: Surface): Promise<void> {
    const notes = messages.filter((m) => m.ephemeral);
    const [head, ...rest] = messages.filter((m) => !m.ephemeral);
    if (!head) {
      await s.nothingPublic?.();
      for (const n of notes) await s.privately(toPayload(n));
      return;
    }
    const caseId = head.caseId;
    const posted = await s.first(toPayload(head)).catch(this.giveUp(`posting the diagnosis of case ${caseId} failed; trying the channel`));
    for (const n of notes) await this.safely('posting a private note', () => s.privately(toPayload(n)));
    const inChannel = async (what: string, messages = rest) => {
      for (const m of messages) await this.safely(what, () => s.inChannel(toPayload(m)));
    };
    // Without its first message there is nothing to grow a thread from; the case goes on in the channel.
    if (!posted) return inChannel('posting in the channel', [head, ...rest]);
    if (!caseId) return inChannel('posting in the channel');
    if (s.channel?.isThread()) {
      this.store.setThread(caseId, s.channel.id);
      return inChannel('posting in the thread');
    }
    const thread = await this.openThread(s, posted.id, threadName(head, 'ComfyOOM'));
    if (thread) {
      try {
        const [next, ...later] = rest;
        if (next) await thread.send(toPayload(next));
        this.store.setThread(caseId, thread.id);
        for (const m of later) await this.safely(`posting in thread ${thread.id}`, () => thread.send(toPayload(m)));
        return;
      } catch (e) {
        this.log(`cannot post in thread ${thread.id}; case ${caseId} continues in the channel`, e);
      }
    }
    const lang = this.engine.state(caseId)?.lang ?? 'en';
    await this.safely('posting the no-thread note', () => s.inChannel(textPayload(say(D.noThread, lang))));
    await inChannel('posting in the channel');
  }

  private async openThread(s: Surface, messageId: string, name: string): Promise<ThreadChannel | undefined> {
    const channel = s.channel;
    if (channel?.type !== ChannelType.GuildText && channel?.type !== ChannelType.GuildAnnouncement) return undefined;
    if (s.perms && !s.perms.has(PermissionFlagsBits.CreatePublicThreads)) return undefined;
    try {
      return await channel.threads.create({ name, startMessage: messageId, autoArchiveDuration: ThreadAutoArchiveDuration.OneDay });
    } catch (e) {
      this.log(isPermissionError(e) ? `no permission to open a thread in ${channel.id}` : `opening a thread in ${channel.id} failed`, e);
      return undefined;
    }
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
      const channel = await this.client.channels.fetch(id).catch(this.giveUp(`cannot open channel ${id} for case ${row.id}`));
      if (!channel?.isSendable()) continue;
      for (const m of visible) await this.safely(`delivering to ${id} for case ${row.id}`, () => channel.send(toPayload(m)));
      return;
    }
  }
}

/** A message's text and files, as the engine reads them; a mention of the bot is not part of the log. */
function inboundOf(m: DiscordMessage, botId?: string): Inbound {
  const text = botId ? m.content.replace(new RegExp(`<@!?${botId}>`, 'g'), '').trim() : m.content;
  return { text, attachments: [...m.attachments.values()].map(wrapAttachment) };
}

/** Discord tells interactions what the bot may do in the channel; zero means it did not say. */
function knownPerms(i: Interaction): Readonly<PermissionsBitField> | undefined {
  return i.appPermissions && i.appPermissions.bitfield !== 0n ? i.appPermissions : undefined;
}

const NEEDED: [string, bigint][] = [
  ['View Channel', PermissionFlagsBits.ViewChannel],
  ['Send Messages', PermissionFlagsBits.SendMessages],
  ['Embed Links', PermissionFlagsBits.EmbedLinks],
];

/** What the bot lacks to run a case here; a case started where it cannot post would be stranded. */
function missingPermissions(i: Interaction): string[] {
  const perms = knownPerms(i);
  if (!perms) return [];
  const inThread = i.channel?.isThread() ?? false;
  return NEEDED.map(([name, bit]): [string, bigint] => (inThread && bit === PermissionFlagsBits.SendMessages ? ['Send Messages in Threads', PermissionFlagsBits.SendMessagesInThreads] : [name, bit]))
    .filter(([, bit]) => !perms.has(bit))
    .map(([name]) => name);
}
