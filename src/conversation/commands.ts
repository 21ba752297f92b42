// What moderators and users ask of the bot beside their cases: a relabel, stats and the weekly
// digest, forgetting a user, retention, and what to say when the store fails.
import type { Facts } from '../classify/facts/types.ts';
import type { Lang } from '../i18n/messages.ts';
import type { Kb } from '../kb/load.ts';
import { storeProblem, type StoreError } from '../store/errors.ts';
import { parseSince } from '../stats/figures.ts';
import type { Scope } from '../store/stats.ts';
import type { Context } from './context.ts';
import { step } from './machine.ts';
import { langOf, placed, type Origin } from './origin.ts';
import { FORGET_PREFIX, renderReplies, type Message } from './render.ts';
import { C } from './strings.ts';

/** How often a wipe another process held back is tried again. */
const SCRUB_RETRY_MS = 60_000;

const PLATFORM_NAMES: Record<string, string> = { discord: 'Discord', slack: 'Slack', terminal: 'the terminal' };

/** The kb's entry ids closest to what was typed (shared words first), for a relabel that names none. */
function nearestEntries(kb: Kb, typed: string): string[] {
  const words = typed.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const shared = (id: string) => words.filter((w) => id.includes(w)).length;
  return kb.entries
    .map((e) => e.id)
    .sort((a, b) => shared(b) - shared(a) || a.localeCompare(b))
    .slice(0, 5);
}

export class Commands {
  /** A wipe held back by another connection's older snapshot, tried again until it completes (see wipe). */
  private scrubRetry?: NodeJS.Timeout;

  constructor(private readonly ctx: Context) {}

  async relabel(caseId: string, entryId: string, who: { actor: string; moderator: boolean; lang: Lang; scope?: Scope }): Promise<{ relabelled: boolean; message: Message }> {
    const { kb, store } = this.ctx;
    const say = (text: string) => ({ relabelled: false, message: { ephemeral: true, blocks: [{ kind: 'text' as const, text }] } });
    const found = await store.get(caseId);
    const inScope = found && (who.scope?.platform ?? found.row.platform) === found.row.platform && (who.scope?.server ?? found.row.server) === found.row.server;
    if (!found || !inScope) return say(C.rejected.unexpected[who.lang]);
    const entry = kb.entries.find((e) => e.id === entryId.trim());
    if (!entry) return say(C.unknownEntry[who.lang].replace('{entry}', entryId.trim().slice(0, 80)).replace('{entries}', nearestEntries(kb, entryId).join(', ')));
    const { state } = found;
    const t = step(state, { kind: 'relabel', entry: entry.id, at: this.ctx.now(), actor: who.actor, moderator: who.moderator });
    const diagnosis = t.records.length ? { category: entry.category, entry: entry.id, facts: JSON.parse(found.row.facts) as Facts } : undefined;
    const after = t.state ?? state;
    if (!(await store.append(caseId, t.records, after, { seq: found.seq, ...(diagnosis ? { diagnosis } : {}) }))) return this.relabel(caseId, entryId, who);
    const [message] = renderReplies(t.replies, { kb, state: { ...after, lang: who.lang }, facts: [], planned: new Map() });
    return { relabelled: t.records.length > 0, message: message! };
  }

  async statsReport(scope: Scope, since: string | undefined, lang: Lang, view: { all: boolean; seeAll: string }): Promise<{ text: string; chart: Buffer } | undefined> {
    let sinceMs: number | undefined;
    try {
      sinceMs = since ? parseSince(since) : undefined;
    } catch {
      return undefined;
    }
    const [{ buildStats, kbNames }, { statsChart }, { statsText }] = await Promise.all([import('../stats/report.ts'), import('../stats/chart.ts'), import('../stats/text.ts')]);
    const stats = await buildStats(this.ctx.store.sql, { scope, now: this.ctx.now(), ...(sinceMs !== undefined ? { sinceMs } : {}) }, this.ctx.kb, this.ctx.learner.setting);
    const names = kbNames(this.ctx.kb, lang);
    return { text: statsText(stats, { lang, names, ...view }), chart: statsChart(stats, lang, names) };
  }

  async weeklyDigest(platform: string, server: string, lang: Lang): Promise<{ text: string; chart: Buffer } | undefined> {
    const now = this.ctx.now();
    const week = Math.floor((Math.floor(now / 86_400_000) + 3) / 7);
    if (!(await this.ctx.store.claimDigest(platform, server, week, now))) return undefined;
    const [{ buildStats, kbNames }, { statsChart }, { digestText }] = await Promise.all([import('../stats/report.ts'), import('../stats/chart.ts'), import('../stats/digest.ts')]);
    const stats = await buildStats(this.ctx.store.sql, { scope: { platform, server }, now, sinceMs: 7 * 86_400_000 });
    const names = kbNames(this.ctx.kb, lang);
    return { text: digestText(stats, lang, names), chart: statsChart(stats, lang, names) };
  }

  storeFailure(e: unknown, lang: Lang): { problem: StoreError; message: Message } | undefined {
    const problem = storeProblem(e, this.ctx.store.sql.name);
    return problem && { problem, message: { ephemeral: true, blocks: [{ kind: 'text', text: C.storeDown[lang] }] } };
  }

  async forgetPrompt(origin: Origin): Promise<Message[]> {
    origin = await placed(this.ctx.settings, origin);
    const lang = langOf(origin, '');
    const n = await this.ctx.store.countOf(origin.user, origin.platform);
    const say = (text: string) => text.replace('{n}', String(n)).replace('{platform}', PLATFORM_NAMES[origin.platform] ?? origin.platform);
    if (!n) return [{ ephemeral: true, blocks: [{ kind: 'text', text: say(C.forgetNothing[lang]) }] }];
    return [
      {
        ephemeral: true,
        blocks: [{ kind: 'text', text: say(C.forgetAsk[lang]) }],
        buttons: [
          { id: `${FORGET_PREFIX}yes`, label: C.buttons.forgetConfirm[lang], style: 'danger' },
          { id: `${FORGET_PREFIX}no`, label: C.buttons.forgetCancel[lang], style: 'secondary' },
        ],
      },
    ];
  }

  async forget(buttonId: string, origin: Origin): Promise<Message[]> {
    origin = await placed(this.ctx.settings, origin);
    const lang = langOf(origin, '');
    if (buttonId !== `${FORGET_PREFIX}yes`) return [{ ephemeral: true, blocks: [{ kind: 'text', text: C.forgetCancelled[lang] }] }];
    const n = await this.ctx.store.deleteUser(origin.user, origin.platform);
    // Even with nothing deleted: a forget whose wipe was interrupted is finished by running it again.
    const clean = await this.wipe();
    return [{ ephemeral: true, blocks: [{ kind: 'text', text: (clean ? C.forgetDone : C.forgetPending)[lang].replace('{n}', String(n)) }] }];
  }

  async expire(days: number): Promise<number> {
    const { cases, wipe } = await this.ctx.store.deleteExpired(days, this.ctx.now());
    if (wipe) await this.wipe();
    return cases;
  }

  /**
   * Scrubs the file off this thread (an SQLite file through the work's own connection); when
   * another process's older snapshot holds the old pages, tries again every minute until done.
   */
  private async wipe(): Promise<boolean> {
    const { store, work } = this.ctx;
    const file = store.sql.file;
    const clean = await (file ? work.wipe(file) : store.wipe());
    if (!clean) this.scrubLater();
    return clean;
  }

  private scrubLater(): void {
    this.scrubRetry ??= setTimeout(() => {
      this.scrubRetry = undefined;
      this.wipe().catch(() => this.scrubLater());
    }, SCRUB_RETRY_MS).unref();
  }
}
