// Slack events in, engine calls, Block Kit out. Every listener acks first (Slack allows three
// seconds) and works after. Every API call is caught: by the time one runs the case is already
// in SQLite, so a failed post costs a message and a log line, never the case or the process.
// Which case a message belongs to, whether it may open one, who may answer: the engine decides.
import type { App, BlockAction, ButtonAction, Logger, MessageShortcut, RespondFn, SlashCommand, ViewSubmitAction, webApi } from '@slack/bolt';
import { langFor, type Engine, type Origin } from '../../conversation/engine.ts';
import type { Inbound } from '../../ingest/ingest.ts';
import { DRAFT_PREFIX, FORGET_PREFIX, isStanding, parseButtonId, type Message } from '../../conversation/render.ts';
import type { Lang } from '../../i18n/messages.ts';
import type { CaseRow } from '../../store/cases.ts';
import { answeredBlocks, codeChunks, toBlockKit, withoutButtons, type SlackMessage } from './blocks.ts';
import { slackAttachments, slackToPlain, withoutMentionOf, type FileAccess, type SlackFile } from './inbound.ts';
import { S } from './strings.ts';
import { parseConfig } from './config.ts';
import { C } from '../../conversation/strings.ts';
import { isWatched } from '../../settings/place.ts';
import { settingsText, type Mentions } from '../../settings/text.ts';

export const COMMAND = '/comfyoom';
export const SHORTCUT_ID = 'diagnose_message';
export const MODAL_ID = 'comfyoom_paste';
/** Watch mode's offer button: `coomw:<ts>:<author>` (the engine's buttons start with "coom:"). */
export const OFFER_PREFIX = 'coomw:';
const MODAL_BLOCK = 'log';
const MODAL_INPUT = 'text';
/** The most a plain_text_input accepts; longer logs go in as files. */
export const MODAL_MAX_CHARS = 3000;
const LOCALE_TTL_MS = 6 * 3_600_000;
/** Past this, a users.info that has not answered is not waited for (the case speaks the paste's language). */
const LOCALE_WAIT_MS = 1500;

/** Errors that mean the bot cannot post here at all, as opposed to Slack having a bad moment. */
const CANNOT_POST = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action', 'team_access_not_granted', 'access_denied']);

export interface HandlerOptions {
  engine: Engine;
  client: webApi.WebClient;
  logger: Logger;
  helpers: readonly string[];
  admins: readonly string[];
  files: FileAccess;
}

/** Where a batch of messages goes and who sees the private ones. */
interface Target {
  channel: string;
  /** Without one, the first message posted starts the thread and the rest go under it. */
  thread?: string;
  user: string;
  lang: Lang;
  /** The interaction's response_url: ephemeral answers through it work even where the bot is not a member. */
  respond?: RespondFn;
  /** A context line for the first message posted (who asked, for a slash command nobody else saw). */
  note?: string;
  /** A "Reading your file…" message the first answer replaces (deleted when none is posted); `ts` cleared once it is. */
  progress?: { ts?: string };
}

interface MessageEventLike {
  channel: string;
  channel_type?: string;
  user?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
  /** In a thread: who posted its first message. */
  parent_user_id?: string;
  subtype?: string;
  bot_id?: string;
  files?: SlackFile[];
}

type ThreadMessage = { text?: string; user?: string; bot_id?: string; files?: SlackFile[] };
/** Who the bot is, from Bolt's context (auth.test). */
type Self = { botUserId?: string; botId?: string };
const isOwn = (m: ThreadMessage, self: Self) => (!!m.bot_id && m.bot_id === self.botId) || (!!m.user && m.user === self.botUserId);

const errorCode = (e: unknown) => (e as { data?: { error?: string } }).data?.error;
const describe = (e: unknown) => errorCode(e) ?? (e instanceof Error ? e.message : String(e));
const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });
const note = (text: string): SlackMessage => toBlockKit({ ephemeral: true, blocks: [{ kind: 'text', text }] });
/** A message posted with buttons, by reference: where to take them off again. */
const ref = (channel: string, ts: string) => `${channel}/${ts}`;
/** Slack ids are upper-case letters and digits; anything else must not reach a `<@…>`. */
const isSlackId = (id: string) => /^[A-Z0-9]{2,}$/.test(id);

function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    timer.unref();
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export class SlackHandlers {
  private readonly locales = new Map<string, { locale: string | undefined; at: number }>();

  constructor(private readonly o: HandlerOptions) {}

  /**
   * Slack redelivers an event it thinks was not acked: a redelivered log must not count twice.
   * The engine remembers the ids (in SQLite, so a restart does not forget them); only events
   * that would do something are recorded, not every message in every channel.
   */
  private async firstTime(eventId: string | undefined): Promise<boolean> {
    return !eventId || (await this.o.engine.firstDelivery('slack', eventId));
  }

  register(app: App): void {
    // Work after the acknowledgement waits its turn (see Engine.turn), but for the form, whose trigger_id dies in 3 s.
    // When the store failed, whoever asked (`tell`) hears privately that nothing was saved.
    const guard = (what: string, work: () => Promise<void>, o: { now?: boolean; tell?: Omit<Target, 'lang'> } = {}) =>
      (o.now ? work() : this.o.engine.turn().then(work)).catch(async (e: unknown) => {
        const store = this.o.engine.storeFailure(e, langFor(this.locales.get(o.tell?.user ?? '')?.locale, ''));
        this.o.logger.error(`slack: ${what} failed: ${store ? store.problem.message : describe(e)}`);
        if (store && o.tell) await this.ephemeral({ ...o.tell, lang: 'en' }, toBlockKit(store.message), o.tell.thread);
      });

    app.command(COMMAND, async ({ command, ack, respond }) => {
      await ack();
      await guard('/comfyoom', () => this.onCommand(command, respond), { now: !slackToPlain(command.text ?? '').trim(), tell: { channel: command.channel_id, user: command.user_id, respond } });
    });
    app.view<ViewSubmitAction>(MODAL_ID, async ({ ack, body, view }) => {
      const meta = parseMeta(view.private_metadata);
      const text = view.state.values[MODAL_BLOCK]?.[MODAL_INPUT]?.value ?? '';
      const lang = langFor(meta.locale, text);
      if (!text.trim()) {
        await ack({ response_action: 'errors', errors: { [MODAL_BLOCK]: S.modalEmpty[lang] } });
        return;
      }
      await ack();
      await guard('modal submission', () => this.onModal(body, meta, text, lang));
    });
    app.action<BlockAction<ButtonAction>>(/^coom:/, async ({ ack, body, action, respond }) => {
      await ack();
      const tell = { channel: body.channel?.id ?? '', user: body.user.id, respond };
      if (body.type === 'block_actions' && action.type === 'button') await guard('button', () => this.onPress(body, action), { tell });
    });
    app.action<BlockAction<ButtonAction>>(new RegExp(`^${OFFER_PREFIX}`), async ({ ack, body, action, respond }) => {
      await ack();
      const tell = { channel: body.channel?.id ?? '', user: body.user.id, respond };
      if (body.type === 'block_actions' && action.type === 'button') await guard('offer', () => this.onOffer(body, action, respond), { tell });
    });
    app.action<BlockAction<ButtonAction>>(new RegExp(`^${DRAFT_PREFIX}`), async ({ ack, body, action, respond }) => {
      await ack();
      if (body.type === 'block_actions' && action.type === 'button') await guard('own case', () => this.onDraft(body, action, respond));
    });
    app.action<BlockAction<ButtonAction>>(new RegExp(`^${FORGET_PREFIX}`), async ({ ack, body, action, respond }) => {
      await ack();
      if (body.type !== 'block_actions' || action.type !== 'button') return;
      await guard('forget', async () => {
        const [answer] = await this.o.engine.forget(action.action_id, this.origin(body.team?.id, body.channel?.id ?? '', body.user.id, this.locales.get(body.user.id)?.locale));
        const kit = toBlockKit(answer!);
        await respond({ replace_original: true, text: kit.text, blocks: kit.blocks });
      });
    });
    app.shortcut<MessageShortcut>(SHORTCUT_ID, async ({ ack, shortcut, respond, context }) => {
      await ack();
      if (shortcut.type === 'message_action') await guard('message shortcut', () => this.onShortcut(shortcut, respond, context));
    });
    app.event('app_mention', async ({ event, body, context }) => {
      if (!(await this.firstTime(body.event_id))) return;
      const e = event as MessageEventLike;
      await guard('mention', () => this.onMention(e, body.team_id, context), e.user ? { tell: { channel: e.channel, user: e.user, thread: e.thread_ts ?? e.ts } } : {});
    });
    app.event('message', async ({ event, body, context }) => {
      const changed = event as unknown as { subtype?: string; channel: string; deleted_ts?: string; message?: MessageEventLike; previous_message?: MessageEventLike };
      if (changed.subtype === 'message_deleted' && changed.deleted_ts) return void (await guard('deletion', () => this.onDeleted(changed.channel, changed.deleted_ts!, context.botId)));
      if (changed.subtype === 'message_changed' && changed.message) {
        const now = { ...changed.message, channel: changed.channel };
        return void (await guard('edit', () => this.onEdited(now, changed.previous_message, body.team_id, body.event_id, context)));
      }
      const e = event as unknown as MessageEventLike;
      // Told only where the words were for the bot: a DM, or a thread under its own message (a case's).
      const toMe = !!e.user && (e.channel_type === 'im' || (!!e.thread_ts && !!context.botUserId && e.parent_user_id === context.botUserId));
      await guard('message', () => this.onMessage(e, body.team_id, body.event_id, context.botUserId), toMe ? { tell: { channel: e.channel, user: e.user!, ...(e.thread_ts ? { thread: e.thread_ts } : {}) } } : {});
    });
  }

  /** For the idle sweep and other notices about a case: into its thread. */
  async deliver(row: CaseRow, messages: Message[]): Promise<void> {
    if (!row.channel) {
      this.o.logger.warn(`slack: case ${row.id} has no channel to post in`);
      return;
    }
    const lang = (await this.o.engine.state(row.id))?.lang ?? 'en';
    await this.send({ channel: row.channel, ...(row.thread ? { thread: row.thread } : {}), user: row.user_id, lang }, messages);
  }

  // --- listeners -----------------------------------------------------------------------------

  private async onCommand(command: SlashCommand, respond: RespondFn): Promise<void> {
    const user = command.user_id;
    const text = slackToPlain(command.text ?? '').trim();
    const place = await this.o.engine.settings.of('slack', command.team_id);
    // Where the admins turned the bot off, it opens nothing (a slash command is never in a thread).
    const silenced = () => this.o.engine.silencedAt('slack', command.team_id, { channel: command.channel_id });
    const refuse = (lang: Lang) => this.ephemeral({ channel: command.channel_id, user, lang, respond }, note(C.optedOut[lang]));
    // The form goes up at once: its trigger_id dies three seconds after the command, and users.info may be slow.
    if (!text) return (await silenced()) ? refuse(langFor(this.locales.get(user)?.locale, '', place.language)) : this.openModal(command, respond);
    const locale = await this.locale(user);
    const lang = langFor(locale, text, place.language);
    const target: Target = { channel: command.channel_id, user, lang, respond };
    const config = /^(?:config|设置)\b\s*(.*)$/is.exec((command.text ?? '').trim());
    if (config) return this.onConfig(target, command.team_id, config[1]!);
    const stats = /^stats\b\s*(.*)$/is.exec(text);
    if (stats) return this.onStats(target, command.team_id, stats[1]!.trim());
    const relabel = /^(?:relabel|更正诊断)\b\s*(.*)$/is.exec(text);
    if (relabel) return this.onRelabel(target, command.team_id, relabel[1]!.trim());
    if (/^(help|帮助)$/i.test(text)) return this.ephemeral(target, note(S.usage[lang]));
    const origin = this.origin(command.team_id, command.channel_id, user, locale);
    if (/^(forget|删除记录)$/i.test(text)) return this.ephemeral(target, toBlockKit((await this.o.engine.forgetPrompt(origin))[0]!));
    if (await silenced()) return refuse(lang);
    // One command opens one case: its trigger_id names it.
    const messages = await this.o.engine.receive({ ...origin, source: `cmd:${command.trigger_id}` }, { text });
    await this.send({ ...target, note: this.askedBy(user, lang) }, messages);
  }

  /** `/comfyoom stats [all] [30d]`, the words in either order. */
  private async onStats(target: Target, team: string, args: string): Promise<void> {
    const { lang } = target;
    if (!this.o.admins.includes(target.user)) return this.ephemeral(target, note(S.statsRefused[lang]));
    const words = args.split(/\s+/).filter(Boolean);
    const all = words.some((w) => /^(all|全部)$/i.test(w));
    const since = words.filter((w) => !/^(all|全部)$/i.test(w));
    if (since.length > 1) return this.ephemeral(target, note(S.statsUsage[lang]));
    // A workspace's admins see that workspace's cases, never another's.
    const report = await this.o.engine.statsReport({ platform: 'slack', server: team }, since[0], lang, { all, seeAll: S.statsAll[lang] });
    if (report === undefined) return this.ephemeral(target, note(S.statsUsage[lang]));
    await this.ephemeral(target, toBlockKit({ ephemeral: true, blocks: codeChunks(report.text).map((text) => ({ kind: 'code' as const, text })) }));
    // An ephemeral message carries no file: the chart goes to the admin's direct messages with the bot, as private.
    try {
      const dm = (await this.o.client.conversations.open({ users: target.user })).channel?.id;
      if (dm) await this.o.client.filesUploadV2({ channel_id: dm, file: report.chart, filename: 'comfyoom-stats.png', title: 'ComfyOOM stats' });
    } catch (e) {
      this.o.logger.warn(`slack: could not send the stats chart to ${target.user}: ${describe(e)}`);
    }
  }

  /** `/comfyoom relabel CASE ENTRY`: a correction by the workspace's admins and helpers, of its own cases. */
  private async onRelabel(target: Target, team: string, args: string): Promise<void> {
    const [caseId, entry, ...rest] = args.split(/\s+/).filter(Boolean);
    if (!caseId || !entry || rest.length) return this.ephemeral(target, note(S.relabelUsage[target.lang]));
    const moderator = this.o.admins.includes(target.user) || this.o.helpers.includes(target.user);
    const { message } = await this.o.engine.relabel(caseId, entry, { actor: target.user, moderator, lang: target.lang, scope: { platform: 'slack', server: team } });
    await this.ephemeral(target, toBlockKit(message));
  }

  /**
   * `/comfyoom config ...`: the workspace's settings, shown or changed by its admins (workspace
   * admins and owners, and SLACK_ADMINS).
   */
  private async onConfig(target: Target, team: string, args: string): Promise<void> {
    const { lang } = target;
    if (!(await this.isAdmin(target.user))) return this.ephemeral(target, note(S.configRefused[lang]));
    const asked = parseConfig(args);
    if (!asked) return this.ephemeral(target, note(S.configUsage[lang]));
    const now = 'change' in asked ? await this.o.engine.settings.change('slack', team, asked.change) : await this.o.engine.settings.of('slack', team);
    // Not escaped like pasted text: the mentions must render, and every id in them was checked to be one.
    const text = settingsText(now, lang, SLACK_MENTIONS, { saved: 'change' in asked });
    await this.ephemeral(target, { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
  }

  /** The bot's own admins, and the workspace's admins and owners (users.info). */
  private async isAdmin(user: string): Promise<boolean> {
    if (this.o.admins.includes(user)) return true;
    try {
      const info = (await this.o.client.users.info({ user })).user;
      return !!(info?.is_admin || info?.is_owner);
    } catch (e) {
      this.o.logger.warn(`slack: users.info ${user} for the settings: ${describe(e)}`);
      return false;
    }
  }

  /** The weekly digest, into the conversation this workspace's admins chose: its stats only. */
  async postDigest(): Promise<void> {
    let channel: string | undefined;
    try {
      const team = (await this.o.client.auth.test()).team_id;
      const place = team ? await this.o.engine.settings.of('slack', team) : undefined;
      channel = place?.digest;
      const digest = team && channel ? await this.o.engine.weeklyDigest('slack', team, place?.language) : undefined;
      if (!digest || !channel) return;
      const kit = toBlockKit({ blocks: codeChunks(digest.text).map((text) => ({ kind: 'code' as const, text })) });
      await this.o.client.chat.postMessage({ channel, text: kit.text, blocks: kit.blocks });
      await this.o.client.filesUploadV2({ channel_id: channel, file: digest.chart, filename: 'comfyoom-week.png', title: 'ComfyOOM week' });
    } catch (e) {
      this.o.logger.warn(`slack: could not post the weekly digest in ${channel ?? 'its channel'}: ${describe(e)}`);
    }
  }

  /**
   * The form for a long paste, in the user's language when it is known already; when users.info
   * tells a different one later, the open form is updated. A form Slack refuses is told, with
   * the other ways to send a log.
   */
  private async openModal(command: SlashCommand, respond: RespondFn): Promise<void> {
    const user = command.user_id;
    const known = this.locales.get(user);
    const meta: ModalMeta = { channel: command.channel_id, response_url: command.response_url, source: `cmd:${command.trigger_id}`, ...(known?.locale ? { locale: known.locale } : {}) };
    const lang = langFor(known?.locale, '');
    let opened;
    try {
      opened = await this.o.client.views.open({ trigger_id: command.trigger_id, view: this.modalView(meta, lang) });
    } catch (e) {
      this.o.logger.error(`slack: views.open failed: ${describe(e)}`);
      await this.ephemeral({ channel: command.channel_id, user, lang, respond }, note(S.modalFailed[lang]));
      return;
    }
    if (known) return;
    // Nobody waits on it now: the form is up.
    const locale = await this.lookupLocale(user);
    const later = langFor(locale, '');
    if (later === lang || !opened.view?.id) return;
    try {
      await this.o.client.views.update({ view_id: opened.view.id, ...(opened.view.hash ? { hash: opened.view.hash } : {}), view: this.modalView({ ...meta, ...(locale ? { locale } : {}) }, later) });
    } catch (e) {
      this.o.logger.debug(`slack: views.update for the user's language: ${describe(e)}`);
    }
  }

  private modalView(meta: ModalMeta, lang: Lang) {
    return {
      type: 'modal' as const,
      callback_id: MODAL_ID,
      // What the submission needs: where to post, the command's response_url (private notes work
      // there even where the bot is not a member), the command it came from and the user's language.
      private_metadata: JSON.stringify(meta),
      title: plain(S.modalTitle[lang]),
      submit: plain(S.modalSubmit[lang]),
      close: plain(S.modalCancel[lang]),
      blocks: [
        {
          type: 'input' as const,
          block_id: MODAL_BLOCK,
          label: plain(S.modalLabel[lang]),
          hint: plain(S.modalHint[lang]),
          element: { type: 'plain_text_input' as const, action_id: MODAL_INPUT, multiline: true, max_length: MODAL_MAX_CHARS },
        },
      ],
    };
  }

  private async onModal(body: ViewSubmitAction, meta: Partial<ModalMeta>, text: string, lang: Lang): Promise<void> {
    const user = body.user.id;
    if (!meta.channel) return;
    // A modal's value is raw text, not Slack's encoded message text.
    const origin = { ...this.origin(body.team?.id, meta.channel, user, meta.locale), ...(meta.source ? { source: meta.source } : {}) };
    const messages = await this.o.engine.receive(origin, { text });
    const respond = meta.response_url ? this.responder(meta.response_url) : undefined;
    await this.send({ channel: meta.channel, user, lang, note: this.askedBy(user, lang), ...(respond ? { respond } : {}) }, messages);
  }

  /** "Open my own case": the draft becomes a case posted in the channel, its steps in a new thread under it. */
  private async onDraft(body: BlockAction<ButtonAction>, action: ButtonAction, respond: RespondFn): Promise<void> {
    const user = body.user.id;
    const channel = body.channel?.id ?? (body.container['channel_id'] as string | undefined);
    if (!channel) return;
    const locale = this.locales.get(user)?.locale;
    const messages = await this.o.engine.openDraft(action.action_id, this.origin(body.team?.id, channel, user, locale));
    const lang = langFor(locale, '');
    await this.send({ channel, user, lang, respond, note: this.askedBy(user, lang) }, messages);
  }

  /** Bolt's respond() for a response_url kept from the slash command (a view submission has none of its own). */
  private responder(url: string): RespondFn {
    return async (message) => {
      const body = typeof message === 'string' ? { text: message } : message;
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`response_url answered HTTP ${res.status}`);
      return res;
    };
  }

  private async onPress(body: BlockAction<ButtonAction>, action: ButtonAction): Promise<void> {
    const user = body.user.id;
    const channel = body.channel?.id ?? (body.container['channel_id'] as string | undefined);
    if (!channel) return;
    const messages = await this.o.engine.press(action.action_id, this.origin(body.team?.id, channel, user, this.locales.get(user)?.locale));
    const choice = parseButtonId(action.action_id);
    const caseId = choice?.caseId;
    const place = caseId ? await this.o.engine.place(caseId) : undefined;
    const lang = (caseId && (await this.o.engine.state(caseId))?.lang) || langFor(this.locales.get(user)?.locale, '');
    const pressed = body.message;
    // Only an accepted answer changes the message ("Show current step" leaves it be); a refusal is for the presser's eyes only.
    if (pressed && choice && !('show' in choice) && messages.some((m) => !m.ephemeral)) {
      if (caseId) await this.o.engine.answeredButtons(caseId, ref(channel, pressed.ts));
      try {
        await this.o.client.chat.update({ channel, ts: pressed.ts, text: pressed.text ?? '', blocks: answeredBlocks(pressed['blocks'] as unknown[] | undefined, action.text.text) });
      } catch (e) {
        this.o.logger.warn(`slack: could not update the answered message ${pressed.ts}: ${describe(e)}`);
      }
    }
    const thread = place?.thread ?? (pressed?.['thread_ts'] as string | undefined) ?? pressed?.ts;
    await this.send({ channel, ...(thread ? { thread } : {}), user, lang }, messages);
  }

  private async onShortcut(s: MessageShortcut, respond: RespondFn, self: Self): Promise<void> {
    const invoker = s.user.id;
    const channel = s.channel.id;
    const msg = s.message;
    // The bot's own diagnosis quotes the error; diagnosing it would open a case about itself.
    const own = isOwn(msg as ThreadMessage, self);
    const text = own ? '' : slackToPlain(msg.text ?? '');
    const files = own ? [] : ((msg['files'] ?? []) as SlackFile[]);
    // The case belongs to whoever has the error (they run the steps), not to the helper who asked.
    const owner = msg.user && !msg['bot_id'] ? msg.user : invoker;
    const locale = await this.locale(owner);
    const lang = langFor(locale, text);
    const thread = (msg['thread_ts'] as string | undefined) ?? msg.ts;
    const target: Target = { channel, user: invoker, lang, respond, thread };
    if (own) return this.ephemeral(target, note(S.noTraceback[lang]));
    if (await this.o.engine.silencedAt('slack', s.team?.id, { channel, thread })) return this.ephemeral(target, note(C.optedOut[lang]));
    // The message is the source: the shortcut used again, or with a mention at the same moment, opens one case.
    const origin = { ...this.origin(s.team?.id, channel, owner, locale), thread, source: `${channel}:${msg.ts}` };
    await this.send(target, await this.o.engine.receive(origin, { text, attachments: slackAttachments(files, this.o.files) }));
  }

  private async onMention(e: MessageEventLike, team: string | undefined, self: Self): Promise<void> {
    const user = e.user;
    if (!user) return;
    const own = slackToPlain(withoutMentionOf(e.text ?? '', self.botUserId));
    const ownFiles = e.files ?? [];
    const thread = e.thread_ts ?? e.ts;
    const locale = await this.locale(user);
    const lang = langFor(locale, own);
    const target: Target = { channel: e.channel, thread, user, lang };
    const inCase = await this.o.engine.caseIn('slack', thread);
    if (!inCase && (await this.o.engine.silencedAt('slack', team, { channel: e.channel }))) return this.ephemeral(target, note(C.optedOut[lang]), thread);

    // A mention that holds a log, or one in a case's thread, is about itself; the engine tells
    // the owner's new log or answer from someone else's log (their own case, elsewhere).
    let source = { text: own, files: ownFiles, user, ts: e.ts };
    if (!inCase && !ownFiles.length && !(await this.o.engine.looksLikeLog(own)) && e.thread_ts && e.thread_ts !== e.ts) {
      // "@ComfyOOM can you look at this?" under someone's traceback: the thread's first message is the log.
      const parent = await this.parent(e.channel, e.thread_ts);
      if (parent && !isOwn(parent, self)) source = { text: slackToPlain(parent.text ?? ''), files: parent.files ?? [], user: parent.user && !parent.bot_id ? parent.user : user, ts: e.thread_ts };
    }
    const ownerLocale = source.user === user ? locale : await this.locale(source.user);
    const origin = { ...this.origin(team, e.channel, source.user, ownerLocale), thread, source: `${e.channel}:${source.ts}` };
    const inbound = { text: source.text, attachments: slackAttachments(source.files, this.o.files) };
    await this.showingProgress(target, inbound, async (t) => {
      const messages = await this.o.engine.receive(origin, inbound);
      await this.send({ ...t, lang: (inCase && (await this.o.engine.state(inCase))?.lang) || lang }, messages);
    });
  }

  /**
   * A message not addressed to the bot: the owner's new log or typed answer in their case's
   * thread, or anything in a DM with the bot (every message there is for it). Others are left alone.
   */
  private async onMessage(e: MessageEventLike, team: string | undefined, eventId: string | undefined, botUserId: string | undefined): Promise<void> {
    if ((e.subtype && e.subtype !== 'file_share' && e.subtype !== 'thread_broadcast') || e.bot_id || !e.user) return;
    // A mention arrives twice, as app_mention and as message; the mention handler answers it.
    if (botUserId && (e.text ?? '').includes(`<@${botUserId}`)) return;
    const direct = e.channel_type === 'im';
    const inThread = !!e.thread_ts && e.thread_ts !== e.ts;
    if (!direct && !(inThread && (await this.o.engine.caseIn('slack', e.thread_ts!)))) {
      if (!inThread) await this.maybeOffer(e, team, eventId);
      return;
    }
    if (!(await this.firstTime(eventId))) return;
    const thread = e.thread_ts ?? e.ts;
    const locale = await this.locale(e.user);
    const text = slackToPlain(e.text ?? '');
    const origin = { ...this.origin(team, e.channel, e.user, locale), thread, ...(direct ? { direct: true, source: `${e.channel}:${e.ts}` } : {}) };
    const inbound = { text, attachments: slackAttachments(e.files, this.o.files) };
    await this.showingProgress({ channel: e.channel, thread, user: e.user, lang: langFor(locale, text) }, inbound, async (t) => {
      const messages = await this.o.engine.posted(origin, inbound);
      const caseId = await this.o.engine.caseIn('slack', thread);
      await this.send({ ...t, lang: (caseId && (await this.o.engine.state(caseId))?.lang) || t.lang }, messages);
    });
  }

  /**
   * A message edited to hold a log, where it held none, is read as if just sent: as a mention when
   * it mentions the bot (Slack sends no app_mention for an edit), else as any message.
   */
  private async onEdited(now: MessageEventLike, before: MessageEventLike | undefined, team: string | undefined, eventId: string | undefined, self: Self): Promise<void> {
    if (now.bot_id || !now.user || (before && before.text === now.text)) return;
    const isLog = (m: MessageEventLike) => this.o.engine.looksLikeLog(slackToPlain(withoutMentionOf(m.text ?? '', self.botUserId)));
    if (!(await isLog(now)) || (before && (await isLog(before)))) return;
    if (self.botUserId && (now.text ?? '').includes(`<@${self.botUserId}`)) return this.onMention(now, team, self);
    return this.onMessage(now, team, eventId, self.botUserId);
  }

  /**
   * A deleted message that opened a case: the case stops, and the bot's diagnosis under it, which
   * quotes it, is deleted (Slack keeps a deleted message's replies).
   */
  private async onDeleted(channel: string, ts: string, botId: string | undefined): Promise<void> {
    const gone = await this.o.engine.sourceDeleted('slack', `${channel}:${ts}`);
    if (!gone) return;
    const replies = await this.o.client.conversations.replies({ channel, ts, limit: 5 });
    const diagnosis = replies.messages?.find((m) => m.ts !== ts && m.bot_id !== undefined && (!botId || m.bot_id === botId));
    if (diagnosis?.ts) await this.o.client.chat.delete({ channel, ts: diagnosis.ts });
  }

  /** Watch mode: one quiet offer, in its thread, under a real OOM posted in a watched channel; silence otherwise. */
  private async maybeOffer(e: MessageEventLike, team: string | undefined, eventId: string | undefined): Promise<void> {
    const place = await this.o.engine.settings.of('slack', team);
    if (!e.user || !isWatched(place, e.channel)) return;
    const text = slackToPlain(e.text ?? '');
    const inbound = { text, attachments: slackAttachments(e.files, this.o.files) };
    if (!(await this.o.engine.worthOffering(this.origin(team, e.channel, e.user, undefined), inbound)) || !(await this.firstTime(eventId))) return;
    const lang = langFor(undefined, text, place.language);
    const kit = toBlockKit({ blocks: [{ kind: 'text', text: C.watchOffer[lang] }], buttons: [{ id: `${OFFER_PREFIX}${e.ts}:${e.user}`, label: C.watchButton[lang], style: 'primary' }] });
    await this.o.client.chat.postMessage({ channel: e.channel, thread_ts: e.ts, text: kit.text, blocks: kit.blocks });
  }

  /** The offer taken, by the author of the error or a helper: the case opens in the message's thread, for its author. */
  private async onOffer(body: BlockAction<ButtonAction>, action: ButtonAction, respond: RespondFn): Promise<void> {
    const [ts = '', author = ''] = action.action_id.slice(OFFER_PREFIX.length).split(':');
    const user = body.user.id;
    const channel = body.channel?.id;
    if (!channel) return;
    const place = await this.o.engine.settings.of('slack', body.team?.id);
    const lang = langFor(this.locales.get(user)?.locale, '', place.language);
    const target: Target = { channel, thread: ts, user, lang, respond };
    if (user !== author && !this.o.helpers.includes(user) && !this.o.admins.includes(user)) return this.ephemeral(target, note(C.offerNotYours[lang]), ts);
    // The offer goes at once, so a second click finds no button (and a doubled one finds the case opened).
    const pressed = body.message;
    if (pressed) await this.o.client.chat.update({ channel, ts: pressed.ts, text: pressed.text ?? '', blocks: answeredBlocks(pressed['blocks'] as unknown[] | undefined, action.text.text) }).catch((e) => this.o.logger.warn(`slack: could not retire the offer ${pressed.ts}: ${describe(e)}`));
    const found = (await this.o.client.conversations.history({ channel, latest: ts, inclusive: true, limit: 1 })).messages?.find((m) => m.ts === ts);
    if (!found) return this.ephemeral(target, note(S.messageGone[lang]), ts);
    const locale = await this.locale(author);
    const origin = { ...this.origin(body.team?.id, channel, author, locale), thread: ts, source: `${channel}:${ts}` };
    const inbound = { text: slackToPlain(found.text ?? ''), attachments: slackAttachments((found.files ?? []) as SlackFile[], this.o.files) };
    await this.showingProgress(target, inbound, async (t) => {
      const messages = await this.o.engine.receive(origin, inbound);
      const caseId = await this.o.engine.caseIn('slack', ts);
      await this.send({ ...t, lang: (caseId && (await this.o.engine.state(caseId))?.lang) || t.lang }, messages);
    });
  }

  // --- helpers -------------------------------------------------------------------------------

  private origin(team: string | undefined, channel: string, user: string, locale: string | undefined): Origin {
    return { platform: 'slack', ...(team ? { server: team } : {}), channel, user, ...(locale ? { locale } : {}), moderator: this.o.helpers.includes(user) };
  }

  private askedBy(user: string, lang: Lang): string | undefined {
    return isSlackId(user) ? S.askedBy[lang].replace('{user}', `<@${user}>`) : undefined;
  }


  /** The user's Slack locale (users.info), cached; undefined when Slack is slow or says nothing. */
  private async locale(user: string): Promise<string | undefined> {
    const hit = this.locales.get(user);
    if (hit && Date.now() - hit.at < LOCALE_TTL_MS) return hit.locale;
    return within(this.lookupLocale(user), LOCALE_WAIT_MS);
  }

  /** users.info, however long it takes, remembered for next time. */
  private lookupLocale(user: string): Promise<string | undefined> {
    return this.o.client.users.info({ user, include_locale: true }).then(
      (r) => {
        const locale = r.user?.locale;
        this.locales.set(user, { locale, at: Date.now() });
        return locale;
      },
      (e: unknown) => {
        this.o.logger.debug(`slack: users.info ${user}: ${describe(e)}`);
        return undefined;
      },
    );
  }

  /** The first message of a thread, where the traceback usually is. */
  private async parent(channel: string, ts: string): Promise<ThreadMessage | undefined> {
    try {
      const r = await this.o.client.conversations.replies({ channel, ts, limit: 1, inclusive: true });
      const m = r.messages?.find((x) => x.ts === ts);
      if (m) return m as ThreadMessage;
    } catch (e) {
      this.o.logger.debug(`slack: conversations.replies ${channel}/${ts}: ${describe(e)}`);
    }
    try {
      const r = await this.o.client.conversations.history({ channel, latest: ts, oldest: ts, inclusive: true, limit: 1 });
      return r.messages?.find((x) => x.ts === ts) as ThreadMessage | undefined;
    } catch (e) {
      this.o.logger.warn(`slack: could not read the thread parent ${channel}/${ts}: ${describe(e)}`);
      return undefined;
    }
  }

  /** Posts in order, threading everything under the first message; stops at the first failure. */
  private async send(target: Target, messages: Message[]): Promise<void> {
    let thread = target.thread;
    let extra = target.note ? [target.note] : [];
    const { progress } = target;
    try {
      for (const m of await Promise.all(messages.map((x) => this.linked(x, target.channel, target.lang)))) {
        if (m.ephemeral) {
          await this.ephemeral(target, toBlockKit(m), thread);
          continue;
        }
        const kit = this.withPing(m, toBlockKit(m, extra));
        let ts: string | undefined;
        try {
          const replacing = progress?.ts;
          if (progress) progress.ts = undefined;
          const res = replacing
            ? await this.o.client.chat.update({ channel: target.channel, ts: replacing, text: kit.text, blocks: kit.blocks })
            : await this.o.client.chat.postMessage({
                channel: target.channel,
                text: kit.text,
                blocks: kit.blocks,
                ...(thread ? { thread_ts: thread } : {}),
                unfurl_links: false,
                unfurl_media: false,
              });
          ts = res.ts;
        } catch (e) {
          this.o.logger.error(`slack: could not post${m.caseId ? ` for case ${m.caseId}` : ''} in ${target.channel}: ${describe(e)}`);
          const cannot = CANNOT_POST.has(errorCode(e) ?? '');
          // A case whose diagnosis could not go out where the bot cannot post reached nobody: it is not kept, nor counted.
          if (cannot && m.opens && m.caseId) await this.o.engine.discard(m.caseId);
          if (cannot) await this.ephemeral({ ...target, thread: undefined }, note((target.channel.startsWith('D') ? S.cannotPostDm : S.cannotPost)[target.lang]), undefined);
          // The rest would arrive out of context. The case is in SQLite; "Show current step" or a mention in its thread shows the question again.
          return;
        }
        extra = [];
        thread ??= ts;
        if (m.opens && m.caseId && thread) await this.o.engine.setThread(m.caseId, thread);
        if (m.caseId && ts) await this.moveButtons(m.caseId, m, target.channel, ts);
        for (const f of m.files ?? []) await this.upload(target.channel, thread, f);
      }
    } finally {
      // Nothing public came to replace it (only private notes, or a failure): it goes.
      await this.dropProgress(target);
    }
  }

  /**
   * A screenshot or a large file takes seconds to read: a "Reading your file…" message goes up at
   * once, and the answer replaces it (see send).
   */
  private async showingProgress(target: Target, inbound: Inbound, answer: (target: Target) => Promise<void>): Promise<void> {
    if (!this.o.engine.takesTime(inbound)) return answer(target);
    const posted = await this.o.client.chat
      .postMessage({ channel: target.channel, text: S.reading[target.lang], ...(target.thread ? { thread_ts: target.thread } : {}) })
      .catch((e: unknown) => void this.o.logger.warn(`slack: could not post the progress message: ${describe(e)}`));
    const withProgress = { ...target, progress: { ...(posted?.ts ? { ts: posted.ts } : {}) } };
    try {
      await answer(withProgress);
    } finally {
      await this.dropProgress(withProgress);
    }
  }

  private async dropProgress(target: Target): Promise<void> {
    const ts = target.progress?.ts;
    if (!ts) return;
    target.progress!.ts = undefined;
    await this.o.client.chat.delete({ channel: target.channel, ts }).catch((e: unknown) => this.o.logger.warn(`slack: could not remove the progress message: ${describe(e)}`));
  }

  /** A note about a case running elsewhere, with a link to its thread (when Slack gives one). */
  private async linked(m: Message, channel: string, lang: Lang): Promise<Message> {
    if (!m.goesOnIn) return m;
    try {
      const { permalink } = await this.o.client.chat.getPermalink({ channel: m.goesOnIn.channel ?? channel, message_ts: m.goesOnIn.thread });
      return permalink ? { ...m, blocks: [...m.blocks, { kind: 'text', text: `<${permalink}|${S.itsThread[lang]}>` }] } : m;
    } catch (e) {
      this.o.logger.warn(`slack: no link to the thread ${m.goesOnIn.thread}: ${describe(e)}`);
      return m;
    }
  }

  /** The hand-over message (and only it) notifies the helper group, once. */
  private withPing(m: Message, kit: SlackMessage): SlackMessage {
    const group = m.pingHelpers ? m.helpers : undefined;
    if (!group || !isSlackId(group)) return kit;
    const ping = `<!subteam^${group}>`;
    return { text: `${ping} ${kit.text}`, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: ping } }, ...kit.blocks] };
  }

  private async ephemeral(target: Target, kit: SlackMessage, thread?: string): Promise<void> {
    try {
      if (target.respond) await target.respond({ response_type: 'ephemeral', replace_original: false, text: kit.text, blocks: kit.blocks });
      else await this.o.client.chat.postEphemeral({ channel: target.channel, user: target.user, text: kit.text, blocks: kit.blocks, ...(thread ? { thread_ts: thread } : {}) });
    } catch (e) {
      this.o.logger.warn(`slack: could not answer ${target.user} privately in ${target.channel}: ${describe(e)}`);
    }
  }

  /**
   * A message of a case went out: the case's live buttons are on it now if it has any but "Show
   * current step", and come off the message that had them (a question the case has moved past),
   * so only the current one can be answered. Which message has them is kept with the case, so a
   * restart forgets none; the old message is read back from Slack to be posted again without them.
   */
  private async moveButtons(caseId: string, m: Message, channel: string, ts: string): Promise<void> {
    const here = ref(channel, ts);
    const before = await this.o.engine.swapButtons(caseId, m.buttons?.some((b) => !isStanding(b.id)) ? here : null);
    if (!before || before === here) return;
    const [oldChannel = '', oldTs = ''] = before.split('/');
    try {
      const found = await this.o.client.conversations.replies({ channel: oldChannel, ts: oldTs, oldest: oldTs, latest: oldTs, inclusive: true });
      const old = found.messages?.find((x) => x.ts === oldTs);
      if (old) await this.o.client.chat.update({ channel: oldChannel, ts: oldTs, text: old.text ?? '', blocks: withoutButtons(old.blocks) });
    } catch (e) {
      this.o.logger.warn(`slack: could not remove the buttons of ${oldTs}: ${describe(e)}`);
    }
  }

  private async upload(channel: string, thread: string | undefined, f: { name: string; content: string }): Promise<void> {
    try {
      const file = { content: f.content, filename: f.name, title: f.name };
      await this.o.client.filesUploadV2(thread ? { ...file, channel_id: channel, thread_ts: thread } : { ...file, channel_id: channel });
    } catch (e) {
      this.o.logger.warn(`slack: could not upload ${f.name}: ${describe(e)}`);
    }
  }
}

interface ModalMeta {
  channel: string;
  response_url: string;
  /** The command the form came from: one command opens one case. */
  source?: string;
  locale?: string;
}

function parseMeta(raw: string | undefined): Partial<ModalMeta> {
  try {
    const m = JSON.parse(raw ?? '{}') as Record<string, unknown>;
    const str = (k: keyof ModalMeta) => (typeof m[k] === 'string' ? { [k]: m[k] as string } : {});
    return { ...str('channel'), ...str('response_url'), ...str('source'), ...str('locale') };
  } catch {
    return {};
  }
}


/** Ids are Slack's (upper-case letters and digits) or shown as nothing: a stored value never becomes markup. */
const SLACK_MENTIONS: Mentions = { channel: (id) => (isSlackId(id) ? `<#${id}>` : '?'), helpers: (id) => (isSlackId(id) ? `<!subteam^${id}>` : '?') };
