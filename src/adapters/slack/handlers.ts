// Slack events in, engine calls, Block Kit out. Every listener acks first (Slack allows three
// seconds) and works after. Every API call is caught: by the time one runs the case is already
// in SQLite, so a failed post costs a message and a log line, never the case or the process.
import type { App, BlockAction, ButtonAction, Logger, MessageShortcut, RespondFn, SlashCommand, ViewSubmitAction, webApi } from '@slack/bolt';
import { langFor, type Engine, type Origin } from '../../conversation/engine.ts';
import { parseButtonId, type Message } from '../../conversation/render.ts';
import type { Lang } from '../../i18n/messages.ts';
import type { CaseRow, CaseStore } from '../../store/cases.ts';
import { computeStats, formatStats, parseSince } from '../../store/stats.ts';
import { answeredBlocks, codeChunks, toBlockKit, withoutButtons, type SlackMessage } from './blocks.ts';
import { slackAttachments, slackToPlain, withoutMentionOf, type FileAccess, type SlackFile } from './inbound.ts';
import { S } from './strings.ts';

export const COMMAND = '/comfyoom';
export const SHORTCUT_ID = 'diagnose_message';
export const MODAL_ID = 'comfyoom_paste';
const MODAL_BLOCK = 'log';
const MODAL_INPUT = 'text';
/** The most a plain_text_input accepts; longer logs go in as files. */
export const MODAL_MAX_CHARS = 3000;
const LOCALE_TTL_MS = 6 * 3_600_000;
/** The modal's trigger_id dies three seconds after the command, so a slow users.info is not waited for. */
const LOCALE_WAIT_MS = 1500;

/** Errors that mean the bot cannot post here at all, as opposed to Slack having a bad moment. */
const CANNOT_POST = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action', 'team_access_not_granted', 'access_denied']);

export interface HandlerOptions {
  engine: Engine;
  store: CaseStore;
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
}

interface MessageEventLike {
  channel: string;
  user?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
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
  /**
   * The last message with buttons per case, so they can be taken away when the case moves on
   * another way (a new log, a re-shown question). In memory only: after a restart an old button
   * still works or gets the engine's polite "earlier question" answer.
   */
  private readonly lastButtons = new Map<string, { channel: string; ts: string; kit: SlackMessage }>();

  /** Event ids already handled: Slack redelivers an event it thinks was not acked, and a redelivered paste must not open a second case. */
  private readonly seenEvents = new Set<string>();

  constructor(private readonly o: HandlerOptions) {}

  private firstTime(eventId: string | undefined): boolean {
    if (!eventId) return true;
    if (this.seenEvents.has(eventId)) return false;
    this.seenEvents.add(eventId);
    if (this.seenEvents.size > 2000) this.seenEvents.delete(this.seenEvents.values().next().value!);
    return true;
  }

  register(app: App): void {
    const guard = (what: string, work: () => Promise<void>) =>
      work().catch((e: unknown) => this.o.logger.error(`slack: ${what} failed: ${describe(e)}`));

    app.command(COMMAND, async ({ command, ack, respond }) => {
      await ack();
      await guard('/comfyoom', () => this.onCommand(command, respond));
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
    app.action<BlockAction<ButtonAction>>(/^coom:/, async ({ ack, body, action }) => {
      await ack();
      if (body.type === 'block_actions' && action.type === 'button') await guard('button', () => this.onPress(body, action));
    });
    app.shortcut<MessageShortcut>(SHORTCUT_ID, async ({ ack, shortcut, respond, context }) => {
      await ack();
      if (shortcut.type === 'message_action') await guard('message shortcut', () => this.onShortcut(shortcut, respond, context));
    });
    app.event('app_mention', async ({ event, body, context }) => {
      if (!this.firstTime(body.event_id)) return;
      await guard('mention', () => this.onMention(event as MessageEventLike, body.team_id, context));
    });
    app.event('message', async ({ event, body, context }) => {
      if (!this.firstTime(body.event_id)) return;
      await guard('thread message', () => this.onThreadMessage(event as unknown as MessageEventLike, body.team_id, context.botUserId));
    });
  }

  /** For the idle sweep and other notices about a case: into its thread. */
  async deliver(row: CaseRow, messages: Message[]): Promise<void> {
    if (!row.channel) {
      this.o.logger.warn(`slack: case ${row.id} has no channel to post in`);
      return;
    }
    const lang = this.o.engine.state(row.id)?.lang ?? 'en';
    await this.send({ channel: row.channel, ...(row.thread ? { thread: row.thread } : {}), user: row.user_id, lang }, messages);
  }

  // --- listeners -----------------------------------------------------------------------------

  private async onCommand(command: SlashCommand, respond: RespondFn): Promise<void> {
    const user = command.user_id;
    const text = slackToPlain(command.text ?? '').trim();
    const locale = await this.locale(user);
    const lang = langFor(locale, text);
    const target: Target = { channel: command.channel_id, user, lang, respond };
    const stats = /^stats\b\s*(.*)$/is.exec(text);
    if (stats) return this.onStats(target, stats[1]!.trim());
    if (/^(help|帮助)$/i.test(text)) return this.ephemeral(target, note(S.usage[lang]));
    if (!text) return this.openModal(command, locale, lang);
    if (!(await this.o.engine.looksLikeLog(text))) return this.ephemeral(target, note(`${S.noTraceback[lang]}\n\n${S.usage[lang]}`));
    const messages = await this.o.engine.receive(this.origin(command.team_id, command.channel_id, user, locale), { text });
    await this.send({ ...target, note: this.askedBy(user, lang) }, messages);
  }

  private async onStats(target: Target, since: string): Promise<void> {
    const { lang } = target;
    if (!this.o.admins.includes(target.user)) return this.ephemeral(target, note(S.statsRefused[lang]));
    let sinceMs: number | undefined;
    if (since) {
      try {
        sinceMs = parseSince(since);
      } catch {
        return this.ephemeral(target, note(S.statsUsage[lang]));
      }
    }
    const report = formatStats(computeStats(this.o.store.db, sinceMs === undefined ? {} : { sinceMs }));
    await this.ephemeral(target, toBlockKit({ ephemeral: true, blocks: codeChunks(report).map((text) => ({ kind: 'code' as const, text })) }));
  }

  private async openModal(command: SlashCommand, locale: string | undefined, lang: Lang): Promise<void> {
    const meta: ModalMeta = { channel: command.channel_id, response_url: command.response_url, ...(locale ? { locale } : {}) };
    try {
      await this.o.client.views.open({
        trigger_id: command.trigger_id,
        view: {
          type: 'modal',
          callback_id: MODAL_ID,
          // What the submission needs: where to post, the command's response_url (private notes
          // work there even where the bot is not a member) and the user's language.
          private_metadata: JSON.stringify(meta),
          title: plain(S.modalTitle[lang]),
          submit: plain(S.modalSubmit[lang]),
          close: plain(S.modalCancel[lang]),
          blocks: [
            {
              type: 'input',
              block_id: MODAL_BLOCK,
              label: plain(S.modalLabel[lang]),
              hint: plain(S.modalHint[lang]),
              element: { type: 'plain_text_input', action_id: MODAL_INPUT, multiline: true, max_length: MODAL_MAX_CHARS },
            },
          ],
        },
      });
    } catch (e) {
      this.o.logger.error(`slack: views.open failed: ${describe(e)}`);
    }
  }

  private async onModal(body: ViewSubmitAction, meta: Partial<ModalMeta>, text: string, lang: Lang): Promise<void> {
    const user = body.user.id;
    if (!meta.channel) return;
    // A modal's value is raw text, not Slack's encoded message text.
    const messages = await this.o.engine.receive(this.origin(body.team?.id, meta.channel, user, meta.locale), { text });
    const respond = meta.response_url ? this.responder(meta.response_url) : undefined;
    await this.send({ channel: meta.channel, user, lang, note: this.askedBy(user, lang), ...(respond ? { respond } : {}) }, messages);
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
    const messages = this.o.engine.press(action.action_id, this.origin(body.team?.id, channel, user, this.locales.get(user)?.locale));
    const caseId = parseButtonId(action.action_id)?.caseId;
    const row = caseId ? this.o.store.get(caseId)?.row : undefined;
    const lang = (caseId && this.o.engine.state(caseId)?.lang) || langFor(this.locales.get(user)?.locale, '');
    const pressed = body.message;
    // Only an accepted answer changes the message; a refusal is for the presser's eyes only.
    if (pressed && messages.some((m) => !m.ephemeral)) {
      if (caseId && this.lastButtons.get(caseId)?.ts === pressed.ts) this.lastButtons.delete(caseId);
      try {
        await this.o.client.chat.update({ channel, ts: pressed.ts, text: pressed.text ?? '', blocks: answeredBlocks(pressed['blocks'] as unknown[] | undefined, action.text.text) });
      } catch (e) {
        this.o.logger.warn(`slack: could not update the answered message ${pressed.ts}: ${describe(e)}`);
      }
    }
    const thread = row?.thread ?? (pressed?.['thread_ts'] as string | undefined) ?? pressed?.ts;
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
    const target: Target = { channel, user: invoker, lang, respond, thread: (msg['thread_ts'] as string | undefined) ?? msg.ts };
    if (!(await this.o.engine.looksLikeLog(text)) && !files.length) return this.ephemeral(target, note(S.noTraceback[lang]));
    const open = this.o.store.caseInThread('slack', target.thread!);
    const messages = await this.o.engine.receive(this.origin(s.team?.id, channel, owner, locale), { text, attachments: slackAttachments(files, this.o.files) }, open);
    this.threadNewCases(messages, target.thread!);
    await this.send(target, messages);
  }

  private async onMention(e: MessageEventLike, team: string | undefined, self: Self): Promise<void> {
    const user = e.user;
    if (!user) return;
    const own = slackToPlain(withoutMentionOf(e.text ?? '', self.botUserId));
    const ownFiles = e.files ?? [];
    const ownLog = (await this.o.engine.looksLikeLog(own)) || ownFiles.length > 0;
    const thread = e.thread_ts ?? e.ts;
    const locale = await this.locale(user);
    const lang = langFor(locale, own);
    const target: Target = { channel: e.channel, thread, user, lang };

    const open = e.thread_ts ? this.o.store.caseInThread('slack', e.thread_ts) : undefined;
    if (open) {
      // In a case's thread: a log, or words while the case asks its question, are for the case;
      // a bare mention asks for the question again.
      const forCase = ownLog || (!!own.trim() && this.o.engine.state(open)?.awaiting === 'question');
      const messages = forCase
        ? await this.o.engine.receive(this.origin(team, e.channel, user, locale), { text: own, attachments: slackAttachments(ownFiles, this.o.files) }, open)
        : this.o.engine.current(open);
      return this.send({ ...target, lang: this.o.engine.state(open)?.lang ?? lang }, messages);
    }

    let source = ownLog ? { text: own, files: ownFiles, user } : undefined;
    if (!source && e.thread_ts && e.thread_ts !== e.ts) {
      const parent = await this.parent(e.channel, e.thread_ts);
      const parentText = slackToPlain(parent?.text ?? '');
      if (parent && !isOwn(parent, self) && ((await this.o.engine.looksLikeLog(parentText)) || parent.files?.length)) {
        source = { text: parentText, files: parent.files ?? [], user: parent.user && !parent.bot_id ? parent.user : user };
      }
    }
    if (!source) return this.ephemeral(target, note(S.noTraceback[lang]), e.thread_ts);
    const ownerLocale = source.user === user ? locale : await this.locale(source.user);
    const messages = await this.o.engine.receive(this.origin(team, e.channel, source.user, ownerLocale), { text: source.text, attachments: slackAttachments(source.files, this.o.files) });
    this.threadNewCases(messages, thread);
    await this.send(target, messages);
  }

  /** The owner writing in their case's thread: a new log when it looks like one, a typed answer while the case asks its question, chat otherwise. */
  private async onThreadMessage(e: MessageEventLike, team: string | undefined, botUserId: string | undefined): Promise<void> {
    if ((e.subtype && e.subtype !== 'file_share' && e.subtype !== 'thread_broadcast') || e.bot_id || !e.user || !e.thread_ts || e.thread_ts === e.ts) return;
    // A mention arrives twice, as app_mention and as message; the mention handler answers it.
    if (botUserId && (e.text ?? '').includes(`<@${botUserId}`)) return;
    const caseId = this.o.store.caseInThread('slack', e.thread_ts);
    const state = caseId ? this.o.engine.state(caseId) : undefined;
    if (!caseId || !state || state.owner !== e.user) return;
    const text = slackToPlain(e.text ?? '');
    const files = e.files ?? [];
    if (!(await this.o.engine.looksLikeLog(text)) && !files.length && state.awaiting !== 'question') return;
    const locale = await this.locale(e.user);
    const messages = await this.o.engine.receive(this.origin(team, e.channel, e.user, locale), { text, attachments: slackAttachments(files, this.o.files) }, caseId);
    await this.send({ channel: e.channel, thread: e.thread_ts, user: e.user, lang: state.lang }, messages);
  }

  // --- helpers -------------------------------------------------------------------------------

  private origin(team: string | undefined, channel: string, user: string, locale: string | undefined): Origin {
    return { platform: 'slack', ...(team ? { server: team } : {}), channel, user, ...(locale ? { locale } : {}), moderator: this.o.helpers.includes(user) };
  }

  private askedBy(user: string, lang: Lang): string | undefined {
    return isSlackId(user) ? S.askedBy[lang].replace('{user}', `<@${user}>`) : undefined;
  }

  /** A case opened from a message lives in that message's thread, known before anything is posted. */
  private threadNewCases(messages: Message[], thread: string): void {
    for (const id of new Set(messages.map((m) => m.caseId).filter((x): x is string => !!x))) {
      if (this.o.store.get(id)?.row.thread === null) this.o.store.setThread(id, thread);
    }
  }

  /** The user's Slack locale (users.info), cached; undefined when Slack is slow or says nothing. */
  private async locale(user: string): Promise<string | undefined> {
    const hit = this.locales.get(user);
    if (hit && Date.now() - hit.at < LOCALE_TTL_MS) return hit.locale;
    const lookup = this.o.client.users.info({ user, include_locale: true }).then(
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
    return within(lookup, LOCALE_WAIT_MS);
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
    for (const m of messages) {
      if (m.ephemeral) {
        await this.ephemeral(target, toBlockKit(m), thread);
        continue;
      }
      if (m.caseId) await this.retireButtons(m.caseId);
      const kit = toBlockKit(m, extra);
      let ts: string | undefined;
      try {
        const res = await this.o.client.chat.postMessage({
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
        if (CANNOT_POST.has(errorCode(e) ?? '')) await this.ephemeral({ ...target, thread: undefined }, note(S.cannotPost[target.lang]), undefined);
        // The rest would arrive out of context. The case is in SQLite; a mention in its thread shows the question again.
        return;
      }
      extra = [];
      thread ??= ts;
      if (m.caseId && thread) this.threadNewCases([m], thread);
      if (m.caseId && ts && m.buttons?.length) this.lastButtons.set(m.caseId, { channel: target.channel, ts, kit });
      for (const f of m.files ?? []) await this.upload(target.channel, thread, f);
    }
  }

  private async ephemeral(target: Target, kit: SlackMessage, thread?: string): Promise<void> {
    try {
      if (target.respond) await target.respond({ response_type: 'ephemeral', replace_original: false, text: kit.text, blocks: kit.blocks });
      else await this.o.client.chat.postEphemeral({ channel: target.channel, user: target.user, text: kit.text, blocks: kit.blocks, ...(thread ? { thread_ts: thread } : {}) });
    } catch (e) {
      this.o.logger.warn(`slack: could not answer ${target.user} privately in ${target.channel}: ${describe(e)}`);
    }
  }

  /** Takes the buttons off a case's previous question, so only the current one can be answered. */
  private async retireButtons(caseId: string): Promise<void> {
    const last = this.lastButtons.get(caseId);
    if (!last) return;
    this.lastButtons.delete(caseId);
    try {
      await this.o.client.chat.update({ channel: last.channel, ts: last.ts, text: last.kit.text, blocks: withoutButtons(last.kit.blocks) });
    } catch (e) {
      this.o.logger.warn(`slack: could not remove the buttons of ${last.ts}: ${describe(e)}`);
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
  locale?: string;
}

function parseMeta(raw: string | undefined): Partial<ModalMeta> {
  try {
    const m = JSON.parse(raw ?? '{}') as Record<string, unknown>;
    const str = (k: keyof ModalMeta) => (typeof m[k] === 'string' ? { [k]: m[k] as string } : {});
    return { ...str('channel'), ...str('response_url'), ...str('locale') };
  } catch {
    return {};
  }
}

