// The weekly digest for a moderators' channel: what the kb did not know, what fixed what, where the
// bot had to ask or hand over; from the week's stats, in the place's language.
import { listed, type Lang } from '../i18n/messages.ts';
import type { Stats } from './figures.ts';
import type { Names } from './chart.ts';

/** Lines per section: a digest is read in a minute. */
const TOP = 5;

const D = {
  title: { en: 'ComfyOOM, the week from {from}: {cases} cases, {fixed}% fixed (confirmed by the user)', zh: 'ComfyOOM 本周（自 {from} 起）：{cases} 个问题，{fixed}% 已解决（用户确认）', ja: 'ComfyOOM、{from} からの 1 週間：ケース {cases} 件、{fixed}% が解決（ユーザー確認済み）', ko: 'ComfyOOM, {from}부터 한 주: 케이스 {cases}개, {fixed}% 해결 (사용자 확인)', 'zh-Hant': 'ComfyOOM 本週（自 {from} 起）：{cases} 個問題，{fixed}% 已解決（使用者確認）' },
  unknown: { en: 'Errors the kb did not recognize (draft an entry: comfyoom kb draft FINGERPRINT):', zh: '知识库未能识别的错误（起草条目：comfyoom kb draft 指纹）：', ja: 'kb が認識できなかったエラー（項目の下書き：comfyoom kb draft FINGERPRINT）：', ko: 'kb가 인식하지 못한 오류 (항목 초안 작성: comfyoom kb draft FINGERPRINT):', 'zh-Hant': '知識庫未能識別的錯誤（起草條目：comfyoom kb draft 指紋）：' },
  noUnknown: { en: 'Every error was one the kb knows.', zh: '所有错误都能被知识库识别。', ja: 'すべてのエラーが kb の既知のものでした。', ko: '모든 오류가 kb에 있는 오류였어요.', 'zh-Hant': '所有錯誤都能被知識庫識別。' },
  fixes: { en: 'What fixed what:', zh: '哪一步解决了什么：', ja: '何で何が解決したか：', ko: '어떤 단계가 무엇을 해결했나:', 'zh-Hant': '哪一步解決了什麼：' },
  fixLine: { en: '{entry}: {step}, {fixed} of {tried} who tried it', zh: '{entry}：{step}，试过的 {tried} 人中 {fixed} 人解决', ja: '{entry}：{step}、試した {tried} 人中 {fixed} 人が解決', ko: '{entry}: {step}, 시도한 {tried}명 중 {fixed}명 해결', 'zh-Hant': '{entry}：{step}，試過的 {tried} 人中 {fixed} 人解決' },
  noFixes: { en: 'No confirmed fix this week.', zh: '本周没有用户确认的解决。', ja: '今週、ユーザーが確認した解決はありません。', ko: '이번 주에는 확인된 해결이 없어요.', 'zh-Hant': '本週沒有使用者確認的解決。' },
  asked: { en: 'I had to ask before the first step in {asked} cases; handed over to helpers: {escalated}.', zh: '有 {asked} 个问题需要先提问才能开始；转交人工：{escalated} 个。', ja: '最初のステップの前に質問が必要だったケース：{asked} 件。ヘルパーに引き継いだケース：{escalated} 件。', ko: '첫 단계 전에 질문해야 했던 케이스 {asked}개, 도우미에게 인계: {escalated}개.', 'zh-Hant': '有 {asked} 個問題需要先提問才能開始；轉交人工：{escalated} 個。' },
  handedOver: { en: 'Handed over most: {entries}.', zh: '转交人工最多的：{entries}。', ja: '引き継ぎが多かった項目：{entries}。', ko: '인계가 가장 많았던 항목: {entries}.', 'zh-Hant': '轉交人工最多的：{entries}。' },
  misdiagnosed: {
    en: 'Said "that\'s not my problem": {cases}, most for {entries}. Correct one with /comfyoom-relabel on Discord or /comfyoom relabel on Slack (cases: {ids}).',
    zh: '被用户指出“不是我的问题”：{cases} 个，最多的是 {entries}。可用 Discord 的 /comfyoom-relabel 或 Slack 的 /comfyoom relabel 更正（问题编号：{ids}）。', ja: '「私の問題と違う」と言われたケース：{cases} 件、最も多いのは {entries}。Discord では /comfyoom-診断訂正（英語表示では /comfyoom-relabel）、Slack では /comfyoom relabel で訂正できます（ケース：{ids}）。', ko: '"제 문제가 아니에요"라고 한 케이스: {cases}개, 가장 많은 항목: {entries}. Discord에서는 /comfyoom-relabel, Slack에서는 /comfyoom relabel로 수정하세요 (케이스: {ids}).', 'zh-Hant': '被使用者指出「不是我的問題」：{cases} 個，最多的是 {entries}。可用 Discord 的 /comfyoom-relabel 或 Slack 的 /comfyoom relabel 更正（問題編號：{ids}）。',
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
  if (most.length) out.push(fill(D.handedOver[lang], { entries: listed(most.map((e) => `${names.entry(e.entry)} (${e.escalated})`), lang) }));
  if (s.misdiagnosed.cases) {
    const entries = listed(s.misdiagnosed.byEntry.slice(0, 3).map((e) => `${names.entry(e.entry)} (${e.cases})`), lang);
    out.push(fill(D.misdiagnosed[lang], { cases: s.misdiagnosed.cases, entries, ids: s.misdiagnosed.recent.slice(0, TOP).map((r) => r.caseId).join(', ') || '-' }));
  }
  return out.join('\n');
}
