// Every user-facing text says the same in all five languages: each language is there, and each
// names every flag, piece of code, placeholder and number the English names. Texts are read where they
// are written: every Text-shaped value of the kb, and every object literal of src/ that holds one
// (exported or not), so a text added anywhere is checked without being listed here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { LANGS, type Lang } from '../../src/i18n/messages.ts';
import { FLAG_MENTION } from '../../src/plan/plan.ts';
import { kb } from '../helpers/kb.ts';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const OTHERS = LANGS.filter((l) => l !== 'en');

interface Found {
  where: string;
  text: Partial<Record<Lang, string>>;
}

/** Every object of the kb with an English text, wherever it sits. */
function kbTexts(): Found[] {
  const found: Found[] = [];
  const walk = (v: unknown, where: string) => {
    if (v instanceof Map) return [...v].forEach(([k, x]) => walk(x, `${where}.${String(k)}`));
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${where}.${i}`));
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (typeof o.en === 'string') found.push({ where, text: o as Found['text'] });
    else for (const [k, x] of Object.entries(o)) walk(x, `${where}.${k}`);
  };
  walk(kb, 'kb');
  return found;
}

/** Every object literal of src/ whose `en` is a string: its languages' literals (templates as written). */
function sourceTexts(): Found[] {
  const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
  const found: Found[] = [];
  for (const file of files(SRC)) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node) => {
      if (ts.isObjectLiteralExpression(n)) {
        const text: Found['text'] = {};
        for (const p of n.properties) {
          if (!ts.isPropertyAssignment(p)) continue;
          const name = p.name.getText(sf).replace(/^'|'$/g, '') as Lang;
          const v = p.initializer;
          if (LANGS.includes(name) && (ts.isStringLiteral(v) || ts.isNoSubstitutionTemplateLiteral(v))) text[name] = v.text;
          else if (LANGS.includes(name) && ts.isTemplateExpression(v)) text[name] = v.getText(sf);
        }
        if (text.en !== undefined && text.zh !== undefined) found.push({ where: `${file.slice(SRC.length + 1)}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`, text });
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** "June 2026" is "2026 年 6 月": the month's number is the same fact. */
const monthsAsNumbers = (s: string) => s.replace(new RegExp(`\\b(${MONTHS.join('|')})\\b`, 'g'), (m) => String(MONTHS.indexOf(m) + 1));
/** Code a reader types as it stands; a usage line's stand-ins (`<error>`, `#channel`, `CASE`) are written in each language. */
const literal = (code: string) => !/[<[#@]|\b[A-Z]{3,}\b|[^\x00-\x7f]/.test(code);
const READ: Record<string, (s: string) => string[]> = {
  flags: (s) => s.match(FLAG_MENTION) ?? [],
  code: (s) => [...s.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!).filter(literal),
  // English's plural endings ({s}, {es}) have no counterpart in the other languages.
  placeholders: (s) => (s.match(/\{\w+\}/g) ?? []).filter((p) => !['{s}', '{es}'].includes(p)),
  numbers: (s) => [...monthsAsNumbers(s).matchAll(/(?<![\w.])\d+(?:\.\d+)*(?!\w|\.\d)/g)].map((m) => m[0]),
};

/** What of `en`'s list `other` lacks: another language may add (a number in a second unit, a word's other spelling), never drop. */
function lacking(en: string[], other: string[]): string[] {
  const left = [...other];
  return en.filter((x) => {
    const i = left.indexOf(x);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

function differences(found: Found[]): string[] {
  const out: string[] = [];
  for (const { where, text } of found) {
    for (const lang of OTHERS) {
      const other = text[lang];
      if (!other?.trim()) {
        out.push(`${where}: no ${lang} for "${text.en!.slice(0, 60)}"`);
        continue;
      }
      // A template literal is code: its ${...} read each language's own field.
      if (text.en!.startsWith('`')) continue;
      for (const [what, read] of Object.entries(READ)) {
        const lost = lacking(read(text.en!), read(other));
        if (lost.length) out.push(`${where} ${lang} ${what}: no [${lost.join(' ')}] of "${text.en!.slice(0, 50)}"`);
      }
    }
  }
  return out;
}

describe('every text in five languages', () => {
  it('the kb: each Text has every language, with the same flags, code, placeholders and numbers', () => {
    const found = kbTexts();
    expect(found.length).toBeGreaterThan(350);
    expect(differences(found)).toEqual([]);
  });

  it('the bot’s own strings: each has every language, with the same flags, code, placeholders and numbers', () => {
    const found = sourceTexts();
    expect(found.length).toBeGreaterThan(300);
    expect(differences(found)).toEqual([]);
  });
});
