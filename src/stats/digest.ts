// The weekly digest for a moderators' channel: what the kb did not know, what fixed what, where the
// bot had to ask or hand over; from the week's stats, in English or Simplified Chinese.
import type { Lang } from '../i18n/messages.ts';
import type { Stats } from './figures.ts';
import type { Names } from './chart.ts';

/** Lines per section: a digest is read in a minute. */
const TOP = 5;

const D = {
  title: { en: 'ComfyOOM, the week from {from}: {cases} cases, {fixed}% fixed (confirmed by the user)', zh: 'ComfyOOM 本周（自 {from} 起）：{cases} 个问题，{fixed}% 已解决（用户确认）' },
  unknown: { en: 'Errors the kb did not recognize (draft an entry: comfyoom kb draft FINGERPRINT):', zh: '知识库未能识别的错误（起草条目：comfyoom kb draft 指纹）：' },
  noUnknown: { en: 'Every error was one the kb knows.', zh: '所有错误都能被知识库识别。' },
  fixes: { en: 'What fixed what:', zh: '哪一步解决了什么：' },
  fixLine: { en: '{entry}: {step}, {fixed} of {tried} who tried it', zh: '{entry}：{step}，试过的 {tried} 人中 {fixed} 人解决' },
  noFixes: { en: 'No confirmed fix this week.', zh: '本周没有用户确认的解决。' },
  asked: { en: 'I had to ask before the first step in {asked} cases; handed over to helpers: {escalated}.', zh: '有 {asked} 个问题需要先提问才能开始；转交人工：{escalated} 个。' },
  handedOver: { en: 'Handed over most: {entries}.', zh: '转交人工最多的：{entries}。' },
  misdiagnosed: {
    en: 'Said "that\'s not my problem": {cases}, most for {entries}. Correct one with /comfyoom-relabel on Discord or /comfyoom relabel on Slack (cases: {ids}).',
    zh: '被用户指出“不是我的问题”：{cases} 个，最多的是 {entries}。可用 Discord 的 /comfyoom-relabel 或 Slack 的 /comfyoom relabel 更正（问题编号：{ids}）。',
  },
};

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));

export function digestText(s: Stats, lang: Lang, names: Names): string {
  const fixed = s.entries.reduce((n, e) => n + e.resolvedConfirmed, 0);
  const out = [fill(D.title[lang], { from: s.since ? new Date(s.since).toISOString().slice(0, 10) : '-', cases: s.cases, fixed: s.cases ? Math.round((fixed / s.cases) * 100) : 0 }), ''];
  if (s.unrecognized.length) {
    out.push(D.unknown[lang]);
    for (const u of s.unrecognized.slice(0, TOP)) out.push(`- ${u.cases} × ${u.fingerprint}  ${(u.example ?? '').slice(0, 90)}`);
  } else out.push(D.noUnknown[lang]);
  out.push('');
  const fixes = s.funnel
    .flatMap((f) => f.steps.filter((st) => st.fixed > 0).map((st) => ({ entry: f.entry, ...st })))
    .sort((a, b) => b.fixed - a.fixed)
    .slice(0, TOP);
  if (fixes.length) {
    out.push(D.fixes[lang]);
    for (const f of fixes) out.push(`- ${fill(D.fixLine[lang], { entry: names.entry(f.entry), step: names.step(f.step), fixed: f.fixed, tried: f.tried })}`);
  } else out.push(D.noFixes[lang]);
  out.push('');
  const escalated = s.entries.reduce((n, e) => n + e.escalated, 0);
  out.push(fill(D.asked[lang], { asked: s.questions.casesAsked, escalated }));
  const most = s.entries.filter((e) => e.escalated > 0).sort((a, b) => b.escalated - a.escalated).slice(0, 3);
  if (most.length) out.push(fill(D.handedOver[lang], { entries: most.map((e) => `${names.entry(e.entry)} (${e.escalated})`).join(lang === 'zh' ? '；' : '; ') }));
  if (s.misdiagnosed.cases) {
    const entries = s.misdiagnosed.byEntry.slice(0, 3).map((e) => `${names.entry(e.entry)} (${e.cases})`).join(lang === 'zh' ? '；' : '; ');
    out.push(fill(D.misdiagnosed[lang], { cases: s.misdiagnosed.cases, entries, ids: s.misdiagnosed.recent.slice(0, TOP).map((r) => r.caseId).join(', ') || '-' }));
  }
  return out.join('\n');
}
