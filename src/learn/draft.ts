// Growing the kb from what it did not know: the cases of one unrecognized error (one fingerprint)
// become a draft signature and entry for a maintainer to finish, with the cases' redacted pastes as
// test fixtures. A draft is written into a folder of its own (kb/drafts/ by default), which the
// kb loader never reads: it reads kb/entries/, kb/steps/ and the named files only. `kb lint --with`
// checks a draft together with the kb, as it would be once moved in.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Entry, Signature } from '../kb/schema.ts';
import { sql } from 'kysely';
import { all, type Sql } from '../store/sql.ts';
import type { Scope } from '../store/stats.ts';

/** Pastes kept as fixtures, newest first. */
const EXAMPLES = 5;

export interface DraftSource {
  fingerprint: string;
  category: string;
  exceptionType: string | null;
  message: string;
  /** Redacted pastes (as stored), newest first. */
  pastes: string[];
  cases: number;
  firstSeen: number;
  lastSeen: number;
}

/** The stored cases of an unrecognized fingerprint, in a scope: examples come from that scope only. */
export async function readDraftSource(store: Sql, fingerprint: string, scope: Scope = {}): Promise<DraftSource | undefined> {
  const keys = (['platform', 'server'] as const).filter((k) => scope[k] !== undefined);
  const inScope = sql.join(
    keys.map((k) => sql` AND ${sql.ref(k)} = ${scope[k]!}`),
    sql``,
  );
  const json = (path: string[]) => store.dialect.jsonText('facts', path);
  const rows = await all(
    store.db,
    sql<{ category: string; type: string | null; message: string | null; paste: string; at: number }>`SELECT category, ${json(['exception', 'type'])} AS type, ${json(['exception', 'message'])} AS message, paste, created_at AS at
       FROM cases WHERE fingerprint = ${fingerprint} AND recognized = 0${inScope} ORDER BY created_at DESC`,
  );
  const first = rows.find((r) => r.message) ?? rows[0];
  if (!first) return undefined;
  return {
    fingerprint,
    category: first.category,
    exceptionType: first.type,
    message: first.message ?? '',
    pastes: rows.slice(0, EXAMPLES).map((r) => r.paste),
    cases: rows.length,
    firstSeen: rows.at(-1)!.at,
    lastSeen: rows[0]!.at,
  };
}

/**
 * A pattern for the error's message line: its words as written, numbers, hex and paths (which
 * the fingerprint ignores too) left open, and nothing RE2 cannot run in linear time.
 */
export function messagePattern(type: string | null, message: string): string {
  const words = message.trim().slice(0, 120);
  const parts = words.split(/(0x[0-9a-f]+|\d+(?:\.\d+)?|(?:[a-z]:)?[\\/][^\s'"]+)/i).map((part, i) => {
    if (i % 2 === 1) return /^0x/i.test(part) ? '0x[0-9a-f]+' : /^\d/.test(part) ? '\\d+(?:\\.\\d+)?' : '\\S+';
    return part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/\s+/g, '\\s+');
  });
  return `${type ? `${type.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\s*` : ''}${parts.join('')}`;
}

export interface Draft {
  signature: Signature;
  entry: Entry;
  /** Fixtures in the corpus format of test/fixtures/*.jsonl. */
  fixtures: string;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A draft signature and entry for the error, marked draft everywhere a maintainer looks. */
export function draftFor(src: DraftSource): Draft {
  const sigId = `draft_${src.fingerprint}`;
  const id = `draft-${src.fingerprint}`;
  const seen = `${src.cases} case${src.cases === 1 ? '' : 's'} from ${day(src.firstSeen)} to ${day(src.lastSeen)}`;
  return {
    signature: {
      id: sigId,
      patterns: [messagePattern(src.exceptionType, src.message)],
      benign: false,
      denies: false,
      note: `DRAFT from comfyoom kb draft (${seen}): check the pattern against the fixtures, then move it into kb/signatures.yaml.`,
    },
    entry: {
      id,
      category: src.category as Entry['category'],
      title: { en: `DRAFT: ${src.exceptionType ?? 'Error'}: ${src.message.slice(0, 80)}`, zh: `草稿：${src.exceptionType ?? '错误'}：${src.message.slice(0, 80)}`, ja: `下書き：${src.exceptionType ?? 'エラー'}：${src.message.slice(0, 80)}`, ko: `초안: ${src.exceptionType ?? '오류'}: ${src.message.slice(0, 80)}`, 'zh-Hant': `草稿：${src.exceptionType ?? '錯誤'}：${src.message.slice(0, 80)}` },
      cause: {
        en: 'DRAFT: say what this error means and why it happens, for someone who just saw it.',
        zh: '草稿：说明这个错误是什么意思、为什么会出现，写给刚遇到它的人。', ja: '下書き：このエラーを初めて見た人に向けて、エラーの意味と起きる理由を説明してください。', ko: '초안: 이 오류를 방금 본 사람을 위해, 오류가 무슨 뜻이고 왜 생기는지 설명하세요.', 'zh-Hant': '草稿：說明這個錯誤是什麼意思、為什麼會出現，寫給剛遇到它的人。',
      },
      match: { fact: 'primarySignature', is: sigId },
      priority: 0,
      steps: ['share-full-log'],
      sources: [{ title: 'DRAFT: replace with the issue, docs or source that explain this error', url: 'https://docs.comfy.org/troubleshooting/overview' }],
      notes: `DRAFT written by comfyoom kb draft from ${seen} the kb did not recognize (fingerprint ${src.fingerprint}). Before moving it into kb/entries/: write the title, cause and steps, give real sources, and add fixtures.jsonl to the corpus.`,
    },
    fixtures: src.pastes
      .map((text, i) =>
        JSON.stringify({ id: `${id}-${i + 1}`, source: `comfyoom case (fingerprint ${src.fingerprint}), redacted`, app: 'comfyui', category: src.category, alt_categories: [], error_line_in_text: true, text }),
      )
      .join('\n'),
  };
}

const HEADER = '# DRAFT written by `comfyoom kb draft`: not read by the kb loader until a maintainer moves it into kb/.\n';

/** Writes a draft into `dir/<fingerprint>/`: signature.yaml (a one-item list), entries/<id>.yaml, fixtures.jsonl. */
export function writeDraft(d: Draft, dir: string, fingerprint: string): string {
  const out = join(dir, fingerprint);
  mkdirSync(join(out, 'entries'), { recursive: true });
  writeFileSync(join(out, 'signature.yaml'), HEADER + stringify([d.signature]));
  writeFileSync(join(out, 'entries', `${d.entry.id}.yaml`), HEADER + stringify(d.entry));
  writeFileSync(join(out, 'fixtures.jsonl'), `${d.fixtures}\n`);
  return out;
}

/**
 * A copy of the kb with a draft moved in (its signature appended to signatures.yaml, its entries
 * beside the others), for the loader to validate as it would the real thing. The caller removes it.
 */
export function kbWithDraft(kbDir: string, draftDir: string, entries: string[]): string {
  const copy = mkdtempSync(join(tmpdir(), 'comfyoom-kb-draft-'));
  cpSync(kbDir, copy, { recursive: true, filter: (src) => !src.startsWith(join(kbDir, 'drafts')) });
  writeFileSync(join(copy, 'signatures.yaml'), `${readFileSync(join(copy, 'signatures.yaml'), 'utf8')}\n${readFileSync(join(draftDir, 'signature.yaml'), 'utf8')}`);
  for (const name of entries) cpSync(join(draftDir, 'entries', name), join(copy, 'entries', name));
  return copy;
}

export const removeCopy = (dir: string) => rmSync(dir, { recursive: true, force: true });
