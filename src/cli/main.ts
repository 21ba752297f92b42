// The command line: the same engine the chat adapters use, for people and scripts.
//
// Each command loads what it uses when it runs (a dynamic import), so `diagnose` starts without
// the database, the chat libraries, the YAML parser or the schema validator: a cold start is
// mostly module loading, and a one-paste diagnosis must feel instant.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { UserError } from './diagnose.ts';
import type { Config } from '../app/config.ts';
import { storeProblem } from '../store/errors.ts';
import { isLang, LANGS } from '../i18n/messages.ts';
import { openKb } from '../kb/cache.ts';
import { kbDir as configuredKbDir } from '../kb/dir.ts';

const HELP = `comfyoom — troubleshoot ComfyUI out-of-memory errors

Usage:
  comfyoom diagnose [FILE...] [--json] [--lang L]      diagnose pastes or screenshots, each apart (stdin when no FILE)
  comfyoom diagnose --batch FILE.jsonl                 one JSON line per {"id","text"} or {"id","file"} input line
      (what a diagnosis quotes from the paste is redacted like a stored paste; --raw shows it as it was)
  comfyoom kb lint [--with DRAFT]                      validate kb/ (file, field and reason per problem), with a draft moved in
  comfyoom kb draft FINGERPRINT [--out DIR] [--db PATH] [--platform P] [--server ID]
                                                       a draft signature and entry for an error the kb did not recognize,
                                                       its redacted pastes as fixtures (default DIR: kb/drafts, never loaded)
  comfyoom start [--bots]                              start the bot (terminal mode without chat tokens;
                                                       --bots: the chat bots or an error, as the container runs it)
  comfyoom chat [FILE] [--resume] [--db PATH]          guided troubleshooting in the terminal
  comfyoom stats [--since 2w|30d] [--json] [--db PATH] which fixes work: top entries and their steps, one screen
        [--all]                                        every entry, step, learned order and week, with kb ids
        [--platform discord|slack|terminal] [--server ID]   only one platform's, or one server's or workspace's, cases
        [--csv] [--chart FILE.png] [--lang L]          every figure as CSV; the charts as a PNG; text and chart in --lang
  comfyoom order pin ENTRY STEP [--at N] [--by NAME] [--db PATH]   keep a step in its kb place (or place N) whatever outcomes say
  comfyoom order unpin ENTRY STEP [--db PATH]
  comfyoom relabel CASE ENTRY [--by NAME] [--db PATH]  a misdiagnosed case really was kb entry ENTRY: stats and learning
                                                       count it there (the newest such cases are listed in stats)
  comfyoom forget --user ID [--platform P] [--db PATH] delete one user's cases and events
  comfyoom --help

  L, the language of what is shown: en, zh (Simplified Chinese), zh-Hant (Traditional), ja, ko

Environment:
  COMFYOOM_DB          case database (default ./data/comfyoom.db)
  COMFYOOM_IDLE_HOURS  hours without an answer before a case is abandoned (default 24)
  COMFYOOM_RETENTION_DAYS  days a case is kept before it is deleted (default 90)
  COMFYOOM_KB          kb folder to use instead of the bundled kb/
  COMFYOOM_ADAPTIVE    off | suggest | on: step order learned from confirmed fixes (unset: suggest until enough, then on)
  DISCORD_TOKEN, SLACK_BOT_TOKEN, ...  chat platforms for \`start\` (every variable: .env.example)
`;

/** A command's lines of the help (its usage and the options indented under it), or undefined for a command that has none. */
function commandHelp(command: string | undefined): string | undefined {
  if (!command || command.startsWith('-')) return undefined;
  const lines = HELP.slice(HELP.indexOf('Usage:'), HELP.indexOf('Environment:')).split('\n');
  const own: string[] = [];
  for (const [i, line] of lines.entries()) {
    const starts = line.startsWith(`  comfyoom ${command} `) || line === `  comfyoom ${command}`;
    // Continuation lines are indented further than a usage line.
    if (starts || (own.length && own.at(-1) === lines[i - 1] && /^ {4,}/.test(line))) own.push(line);
  }
  return own.length ? `Usage:\n${own.join('\n')}` : undefined;
}

/** --db names an SQLite file, which wins over COMFYOOM_DATABASE_URL. */
const withDb = (config: Config, flag: string | undefined): Config => {
  if (!flag) return config;
  const { databaseUrl: _server, ...rest } = config;
  return { ...rest, db: flag };
};

/** Where the store is, as errors name it: the file, or the server without its password. */
const storeName = async (config: Config) => (config.databaseUrl ? (await import('../store/postgres.ts')).serverName(config.databaseUrl) : resolve(config.db));
const storeAt = (config: Config) => ({ db: resolve(config.db), ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}) });

/** What is wrong with a file given as an argument (a log, a batch), as the end of a sentence naming it. */
/** How long `forget` waits for another process's old snapshot to end before saying it could not yet scrub. */
const FORGET_WAIT_MS = 30_000;

const FILE_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'cannot be read (permission denied)',
};

export async function main(argv: string[], out = (s: string) => process.stdout.write(s + '\n')): Promise<number> {
  const kbDir = configuredKbDir();
  const [command, ...rest] = argv;
  /** The case database the command uses, once known: its problems are told by name. */
  let dbPath: string | undefined;
  try {
    // `comfyoom stats --help`: the command's own lines of the help, and where the rest is.
    const usage = commandHelp(command);
    if (usage && rest.some((a) => a === '--help' || a === '-h')) {
      out(`${usage}\n\nEverything: comfyoom --help`);
      return 0;
    }
    switch (command) {
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        out(HELP);
        return command === undefined ? 2 : 0;
      case 'kb': {
        const [sub, ...args] = rest;
        if (sub === 'draft') return await kbDraft(args, out, kbDir, (p) => (dbPath = p));
        if (sub !== 'lint') throw new UserError('usage: comfyoom kb lint [--with DRAFT] | comfyoom kb draft FINGERPRINT');
        const { values } = parseArgs({ args, options: { with: { type: 'string' } } });
        const [{ loadKb }, { kbWithDraft, removeCopy }, { readdirSync }] = await Promise.all([import('../kb/load.ts'), import('../learn/draft.ts'), import('node:fs')]);
        const dir = values.with === undefined ? kbDir : kbWithDraft(kbDir, values.with, readdirSync(resolve(values.with, 'entries')));
        try {
          const kb = loadKb(dir);
          out(`kb ok${values.with === undefined ? '' : ` with the draft ${values.with}`}: ${kb.entries.length} entries, ${kb.steps.size} steps, ${kb.signatures.length} signatures, ${kb.flags.size} flags (version ${kb.version})`);
        } finally {
          if (dir !== kbDir) removeCopy(dir);
        }
        return 0;
      }
      case 'diagnose': {
        const { values, positionals } = parseArgs({
          args: rest,
          allowPositionals: true,
          options: { json: { type: 'boolean' }, lang: { type: 'string' }, batch: { type: 'string' }, raw: { type: 'boolean' } },
        });
        if (values.lang !== undefined && !isLang(values.lang)) throw new UserError(`--lang must be one of ${LANGS.join(', ')}`);
        const [kb, { createClassifier }, { diagnoseFiles, runBatch }] = await Promise.all([openKb(kbDir), import('../classify/classify.ts'), import('./diagnose.ts')]);
        const classify = createClassifier(kb);
        if (values.batch !== undefined) {
          // Result lines go out in blocks (one write per line costs a system call each), and at least
          // once for each chunk of input read: a client piping one line waits for its answer.
          const block: string[] = [];
          const flush = () => block.length && out(block.splice(0).join('\n'));
          try {
            const failures = await runBatch(values.batch, classify, (line) => block.push(line) >= 256 && flush(), { raw: values.raw ?? false, flush });
            return failures ? 1 : 0;
          } finally {
            flush();
          }
        }
        // Waiting on a terminal for a paste would look like a hang: say how one ends.
        if (!positionals.length && process.stdin.isTTY) {
          process.stderr.write('Paste the error or console log, then press Ctrl+D on a new line (Ctrl+Z, then Enter, on Windows). / 粘贴报错或控制台日志，然后在新的一行按 Ctrl+D（Windows 上按 Ctrl+Z 再回车）。\n');
        }
        const failures = await diagnoseFiles(positionals, classify, kb, { json: values.json ?? false, ...(isLang(values.lang) ? { lang: values.lang } : {}), raw: values.raw ?? false }, out);
        return failures ? 1 : 0;
      }
      case 'start':
      case 'chat': {
        const { values, positionals } = parseArgs({
          args: rest,
          allowPositionals: true,
          options: { resume: { type: 'boolean' }, db: { type: 'string' }, bots: { type: 'boolean' } },
        });
        const { loadConfig } = await import('../app/config.ts');
        const config = withDb(loadConfig(), values.db);
        // A container has nobody at its terminal: the terminal mode would end at once with 0, and a
        // restart policy would start it again and again without a word.
        if (values.bots && !config.discord && !config.slack) throw new UserError('no chat platform to connect to: set DISCORD_TOKEN and/or SLACK_BOT_TOKEN (see .env.example).');
        dbPath = await storeName(config);
        if (command === 'start' && (config.discord || config.slack)) {
          const { runBots } = await import('../app/bots.ts');
          return await runBots(config);
        }
        const [{ readPaste }, { openApp }] = await Promise.all([import('./diagnose.ts'), import('../app/context.ts')]);
        const initialPaste = command === 'chat' && positionals[0] !== undefined ? readPaste(positionals[0]) : undefined;
        const app = await openApp(config);
        const { runTerminal } = await import('./terminal.ts');
        try {
          await app.store.expire(config.retentionDays);
          return await runTerminal({
            engine: app.engine,
            input: process.stdin,
            out,
            err: (s) => process.stderr.write(`${s}\n`),
            interactive: process.stdin.isTTY === true,
            ...(initialPaste !== undefined ? { initialPaste } : {}),
            resume: values.resume ?? false,
          });
        } finally {
          await app.close();
        }
      }
      case 'stats': {
        const { values } = parseArgs({
          args: rest,
          options: {
            since: { type: 'string' },
            json: { type: 'boolean' },
            csv: { type: 'boolean' },
            all: { type: 'boolean' },
            chart: { type: 'string' },
            lang: { type: 'string' },
            db: { type: 'string' },
            platform: { type: 'string' },
            server: { type: 'string' },
          },
        });
        if (values.lang !== undefined && !isLang(values.lang)) throw new UserError(`--lang must be one of ${LANGS.join(', ')}`);
        const lang = isLang(values.lang) ? values.lang : 'en';
        const scope = { ...(values.platform !== undefined ? { platform: values.platform } : {}), ...(values.server !== undefined ? { server: values.server } : {}) };
        const [{ loadConfig }, { openStore }, { parseSince }, { buildStats, kbNames, statsCsv }, { statsText }, kb] = await Promise.all([
          import('../app/config.ts'),
          import('../store/open.ts'),
          import('../stats/figures.ts'),
          import('../stats/report.ts'),
          import('../stats/text.ts'),
          openKb(kbDir),
        ]);
        let sinceMs: number | undefined;
        try {
          sinceMs = values.since !== undefined ? parseSince(values.since) : undefined;
        } catch (e) {
          throw new UserError((e as Error).message);
        }
        const config = withDb(loadConfig(), values.db);
        dbPath = await storeName(config);
        const db = await openStore(storeAt(config), { readonly: true });
        try {
          const stats = await buildStats(db, { scope, ...(sinceMs !== undefined ? { sinceMs } : {}) }, kb, config.adaptive);
          const names = kbNames(kb, lang);
          if (values.chart !== undefined) {
            const [{ statsChart }, { writeFileSync }] = await Promise.all([import('../stats/chart.ts'), import('node:fs')]);
            writeFileSync(values.chart, statsChart(stats, lang, names));
          }
          out(values.json ? JSON.stringify(stats, null, 2) : values.csv ? statsCsv(stats) : statsText(stats, { lang, names, all: values.all ?? false, seeAll: 'comfyoom stats --all' }));
        } finally {
          await db.close();
        }
        return 0;
      }
      case 'order': {
        const [sub, ...args] = rest;
        const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { at: { type: 'string' }, by: { type: 'string' }, db: { type: 'string' } } });
        const [entry, stepId] = positionals;
        if ((sub !== 'pin' && sub !== 'unpin') || !entry || !stepId) throw new UserError('usage: comfyoom order pin ENTRY STEP [--at N] [--by NAME] | comfyoom order unpin ENTRY STEP');
        const [{ loadConfig }, { openStore }, { Learner }, kb] = await Promise.all([import('../app/config.ts'), import('../store/open.ts'), import('../learn/index.ts'), openKb(kbDir)]);
        const config = withDb(loadConfig(), values.db);
        dbPath = await storeName(config);
        const db = await openStore(storeAt(config));
        try {
          const learner = new Learner(db, kb, config.adaptive);
          if (sub === 'unpin') {
            out((await learner.unpin(entry, stepId)) ? `${stepId} is no longer pinned in ${entry}` : `${stepId} was not pinned in ${entry}`);
            return 0;
          }
          try {
            await learner.pin(entry, stepId, values.by ?? 'cli', values.at === undefined ? undefined : Number(values.at));
          } catch (e) {
            throw new UserError((e as Error).message);
          }
          out(`${stepId} is pinned in ${entry} at ${values.at === undefined ? 'its kb place' : `place ${values.at}`}, whatever the outcomes say`);
        } finally {
          await db.close();
        }
        return 0;
      }
      case 'relabel': {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { by: { type: 'string' }, db: { type: 'string' } } });
        const [caseId, entry] = positionals;
        if (!caseId || !entry || positionals.length > 2) throw new UserError('usage: comfyoom relabel CASE ENTRY [--by NAME]');
        const [{ loadConfig }, { openStore }, { CaseStore }, { Engine }, kb] = await Promise.all([
          import('../app/config.ts'),
          import('../store/open.ts'),
          import('../store/cases.ts'),
          import('../conversation/engine.ts'),
          openKb(kbDir),
        ]);
        const config = withDb(loadConfig(), values.db);
        dbPath = await storeName(config);
        const db = await openStore(storeAt(config));
        try {
          // Whoever can open the database is its moderator.
          const engine = new Engine({ kb, store: new CaseStore(db) });
          const { relabelled, message } = await engine.relabel(caseId, entry, { actor: values.by ?? 'cli', moderator: true, lang: 'en' });
          const said = message.blocks.map((b) => b.text).join('\n');
          if (!relabelled) throw new UserError(said);
          out(said);
        } finally {
          await db.close();
        }
        return 0;
      }
      case 'forget': {
        const { values } = parseArgs({ args: rest, options: { user: { type: 'string' }, platform: { type: 'string' }, db: { type: 'string' } } });
        if (!values.user) throw new UserError('usage: comfyoom forget --user ID [--platform P]');
        const [{ loadConfig }, { openStore }, { CaseStore }] = await Promise.all([import('../app/config.ts'), import('../store/open.ts'), import('../store/cases.ts')]);
        const config = withDb(loadConfig(), values.db);
        dbPath = await storeName(config);
        const db = await openStore(storeAt(config));
        try {
          const store = new CaseStore(db);
          let { cases: n, scrubbed } = await store.forgetUser(values.user, values.platform);
          const deleted = `deleted ${n} case${n === 1 ? '' : 's'} of user ${values.user} and their events`;
          // Another process reading an older snapshot keeps the old pages in the log: wait a while for it to end.
          if (!scrubbed) process.stderr.write(`comfyoom: ${deleted}; another process is still reading an older snapshot of the database, waiting for it to end to scrub the last copies…\n`);
          for (let waited = 0; !scrubbed && waited < FORGET_WAIT_MS; waited += 1000) {
            await new Promise((r) => setTimeout(r, 1000));
            scrubbed = await store.wipe();
          }
          if (!scrubbed) {
            out(`${deleted}, but another process still reads an older snapshot of the database, so copies stay in its write-ahead log: run this forget again once that process ends (a running bot also scrubs them by itself)`);
            return 1;
          }
          out(`${deleted}, leaving no copy in the database file (stats keep counting them, anonymously)`);
        } finally {
          await db.close();
        }
        return 0;
      }
      default:
        throw new UserError(`unknown command "${command}"; see comfyoom --help`);
    }
  } catch (e) {
    const dbProblem = dbPath !== undefined ? storeProblem(e, dbPath) : undefined;
    if (dbProblem) {
      process.stderr.write(`comfyoom: ${dbProblem.message}\n`);
      return 1;
    }
    const file = e as NodeJS.ErrnoException;
    if (file.path && file.code && FILE_PROBLEMS[file.code]) {
      process.stderr.write(`comfyoom: ${file.path}: ${FILE_PROBLEMS[file.code]}\n`);
      return 2;
    }
    // By name: the classes live in modules this command may never have loaded.
    const { name, message } = e as Error;
    if (name === 'ConfigError') {
      process.stderr.write(`comfyoom: ${message}\n`);
      return 2;
    }
    if (name === 'KbError') {
      process.stderr.write(`kb/ has problems:\n${message}\n`);
      return 1;
    }
    if (e instanceof UserError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`comfyoom: ${(e as Error).message}\n`);
      return 2;
    }
    throw e;
  }
}

/** `kb draft FINGERPRINT`: a draft signature and entry from the cases of an error the kb did not know, checked by the kb's own lint. */
async function kbDraft(args: string[], out: (s: string) => void, kbDir: string, usingDb: (path: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { out: { type: 'string' }, db: { type: 'string' }, platform: { type: 'string' }, server: { type: 'string' } } });
  const [fingerprint] = positionals;
  if (!fingerprint || !/^[0-9a-f]{6,40}$/.test(fingerprint)) throw new UserError('usage: comfyoom kb draft FINGERPRINT (as `comfyoom stats` lists it)');
  const [{ loadConfig }, { openStore }, draft, { loadKb }] = await Promise.all([import('../app/config.ts'), import('../store/open.ts'), import('../learn/draft.ts'), import('../kb/load.ts')]);
  const config = withDb(loadConfig(), values.db);
  usingDb(await storeName(config));
  const db = await openStore(storeAt(config), { readonly: true });
  let src;
  try {
    src = await draft.readDraftSource(db, fingerprint, { ...(values.platform !== undefined ? { platform: values.platform } : {}), ...(values.server !== undefined ? { server: values.server } : {}) });
  } finally {
    await db.close();
  }
  if (!src) throw new UserError(`no unrecognized case has the fingerprint ${fingerprint}${values.server ? ` on server ${values.server}` : ''}`);
  const d = draft.draftFor(src);
  const dir = draft.writeDraft(d, resolve(values.out ?? resolve(kbDir, 'drafts')), fingerprint);
  // Checked as it would be once moved into the kb: a draft that does not pass lint is no help.
  const copy = draft.kbWithDraft(kbDir, dir, [`${d.entry.id}.yaml`]);
  try {
    loadKb(copy);
  } finally {
    draft.removeCopy(copy);
  }
  out(`draft written to ${dir} (signature ${d.signature.id}, entry ${d.entry.id}, ${src.pastes.length} fixture${src.pastes.length === 1 ? '' : 's'} of ${src.cases} case${src.cases === 1 ? '' : 's'}); kb lint passes with it: comfyoom kb lint --with ${dir}`);
  return 0;
}
