// The stats as text, in the moderator's language, entries and steps by their kb titles. By default
// it fits one screen (the entries with most cases and their most offered steps, the commonest
// unrecognized errors) and its last line says what was left out and how to see it; `all` gives
// every figure, each title followed by its kb id, which relabelling and `kb draft` take.
import type { Lang } from '../i18n/messages.ts';
import type { LearnedOrder } from '../learn/index.ts';
import type { Choice, Question } from '../records/case.ts';
import { OUTCOMES, type FunnelStep, type Stats } from './figures.ts';
import type { Names } from './chart.ts';

/** One screen: the totals (8 lines), 5 entries of 4 lines, 3 errors, what was left out; 37 lines at most with their headings. */
export const GLANCE = { entries: 5, steps: 3, errors: 3, misdiagnosed: 3 } as const;

type Text = Record<Lang, string>;

const T = {
  cases: { en: 'Cases: {cases}{where}{since}', zh: '问题数：{cases}{where}{since}', ja: 'ケース数：{cases}{where}{since}', ko: '케이스: {cases}{where}{since}', 'zh-Hant': '問題數：{cases}{where}{since}' },
  where: { en: ' on {where}', zh: '，{where}', ja: '、{where}', ko: ', {where}', 'zh-Hant': '，{where}' },
  server: { en: 'server {server}', zh: '服务器 {server}', ja: 'サーバー {server}', ko: '서버 {server}', 'zh-Hant': '伺服器 {server}' },
  since: { en: ' since {date}', zh: '，自 {date} 起', ja: '、{date} 以降', ko: ', {date} 이후', 'zh-Hant': '，自 {date} 起' },
  outcomes: {
    en: 'Resolved (user confirmed) {resolvedConfirmed} · resolved (assumed: next log was not an OOM) {resolvedAssumed} · escalated {escalated} · abandoned {abandoned} · stopped {cancelled} · open {open}',
    zh: '已解决（用户确认）{resolvedConfirmed} · 已解决（推断：下一份日志不再是内存不足）{resolvedAssumed} · 转交人工 {escalated} · 无回复 {abandoned} · 已结束 {cancelled} · 进行中 {open}', ja: '解決（ユーザー確認）{resolvedConfirmed} · 解決（推定：次のログが OOM ではなかった）{resolvedAssumed} · 引き継ぎ {escalated} · 応答なし {abandoned} · 終了 {cancelled} · 進行中 {open}', ko: '해결 (사용자 확인) {resolvedConfirmed} · 해결 (추정: 다음 로그가 OOM이 아님) {resolvedAssumed} · 인계 {escalated} · 응답 없음 {abandoned} · 중단 {cancelled} · 진행 중 {open}', 'zh-Hant': '已解決（使用者確認）{resolvedConfirmed} · 已解決（推斷：下一份日誌不再是記憶體不足）{resolvedAssumed} · 轉交人工 {escalated} · 無回覆 {abandoned} · 已結束 {cancelled} · 進行中 {open}',
  },
  misdiagnosed: { en: 'Said "that\'s not my problem" (misdiagnosed): {cases} ({share}){entries}', zh: '被用户指出“不是我的问题”（误诊）：{cases} 个（{share}）{entries}', ja: '「私の問題と違う」と言われた（誤診）：{cases} 件（{share}）{entries}', ko: '"제 문제가 아니에요" (오진): {cases} ({share}){entries}', 'zh-Hant': '被使用者指出「不是我的問題」（誤診）：{cases} 個（{share}）{entries}' },
  recent: {
    en: '  newest (case: doubted -> went on as; correct one with /comfyoom-relabel or comfyoom relabel CASE ENTRY): {cases}',
    zh: '  最近的（问题编号：被质疑的诊断 -> 后来的诊断；用 /comfyoom-relabel 或 comfyoom relabel 问题编号 条目 更正）：{cases}', ja: '  最近のもの（ケース：疑われた診断 -> その後の診断。/comfyoom-診断訂正（/comfyoom-relabel）または comfyoom relabel CASE ENTRY で訂正）：{cases}', ko: '  최근 (케이스: 의심받은 진단 -> 이후 진행된 진단, /comfyoom-relabel 또는 comfyoom relabel CASE ENTRY로 수정): {cases}', 'zh-Hant': '  最近的（問題編號：被質疑的診斷 -> 後來的診斷；用 /comfyoom-relabel 或 comfyoom relabel 問題編號 條目 更正）：{cases}',
  },
  median: { en: 'Median steps to a confirmed fix: {steps} · median minutes: {minutes}', zh: '用户确认解决所需步骤数（中位数）：{steps} · 用时（分钟，中位数）：{minutes}', ja: '確認済みの解決までのステップ数（中央値）：{steps} · 所要時間（分、中央値）：{minutes}', ko: '확인된 해결까지 단계 수 중앙값: {steps} · 소요 시간(분) 중앙값: {minutes}', 'zh-Hant': '使用者確認解決所需步驟數（中位數）：{steps} · 用時（分鐘，中位數）：{minutes}' },
  entries: {
    en: 'Cases per entry (confirmed / assumed / escalated / abandoned), and the steps offered in it, most offered first:',
    zh: '各条目的问题数（用户确认解决 / 推断解决 / 转交人工 / 无回复），及其中提供过的步骤（提供最多的在前）：', ja: '項目ごとのケース数（確認済み解決 / 推定解決 / 引き継ぎ / 応答なし）と、その中で提示したステップ（提示回数の多い順）：', ko: '항목별 케이스 수 (확인 / 추정 / 인계 / 응답 없음), 그리고 그 안에서 제안된 단계 (제안 많은 순):', 'zh-Hant': '各條目的問題數（使用者確認解決 / 推斷解決 / 轉交人工 / 無回覆），及其中提供過的步驟（提供最多的在前）：',
  },
  step: { en: '{step} — fixed {fixed} of {tried} tried ({rate}), offered {offered}', zh: '{step} — 试过 {tried} 次，解决 {fixed} 次（{rate}），共提供 {offered} 次', ja: '{step} — 試行 {tried} 回中 {fixed} 回解決（{rate}）、提示 {offered} 回', ko: '{step} — 시도 {tried}회 중 {fixed}회 해결 ({rate}), 제안 {offered}회', 'zh-Hant': '{step} — 試過 {tried} 次，解決 {fixed} 次（{rate}），共提供 {offered} 次' },
  untried: { en: '{step} — offered {offered}, none tried', zh: '{step} — 共提供 {offered} 次，还没有人试过', ja: '{step} — 提示 {offered} 回、試行なし', ko: '{step} — 제안 {offered}회, 시도 없음', 'zh-Hant': '{step} — 共提供 {offered} 次，還沒有人試過' },
  stepMore: { en: '; assumed fixed {assumed}, next log a different failure {movedOn}', zh: '；推断解决 {assumed} 次，下一份日志换成另一种错误 {movedOn} 次', ja: '、推定解決 {assumed} 回、次のログが別のエラー {movedOn} 回', ko: '; 해결 추정 {assumed}, 다음 로그가 다른 오류 {movedOn}', 'zh-Hant': '；推斷解決 {assumed} 次，下一份日誌換成另一種錯誤 {movedOn} 次' },
  steps: {
    en: 'Every step, across entries (fixed = confirmed by the user; a case counts once):',
    zh: '所有步骤，不分条目（解决 = 用户确认；每个问题只算一次）：', ja: '全ステップ（項目をまたいで集計。解決 = ユーザー確認済み。1 ケースは 1 回だけ数える）：', ko: '항목 구분 없이 모든 단계 (해결 = 사용자 확인, 케이스당 한 번만 집계):', 'zh-Hant': '所有步驟，不分條目（解決 = 使用者確認；每個問題只算一次）：',
  },
  asked: { en: 'Asked before the first step, because the log could not tell: {cases} case{s}', zh: '因为日志看不出而在第一步前提问：{cases} 个问题', ja: 'ログから判断できず、最初のステップの前に質問したケース：{cases} 件', ko: '로그로 알 수 없어서 첫 단계 전에 질문함: 케이스 {cases}개', 'zh-Hant': '因為日誌看不出而在第一步前提問：{cases} 個問題' },
  question: { en: '  {question} asked {asked}: {answers} (typed {typed})', zh: '  {question} 问了 {asked} 次：{answers}（手动输入 {typed}）', ja: '  {question} 質問 {asked} 回：{answers}（手入力 {typed}）', ko: '  {question} 질문 {asked}회: {answers} (직접 입력 {typed})', 'zh-Hant': '  {question} 問了 {asked} 次：{answers}（手動輸入 {typed}）' },
  questions: { vendor: { en: 'vendor ', zh: '显卡厂商', ja: 'GPUメーカー', ko: 'GPU 제조사', 'zh-Hant': '顯示卡廠商' }, stage: { en: 'stage  ', zh: '出错阶段', ja: '失敗した段階', ko: '오류 단계 ', 'zh-Hant': '出錯階段' } } satisfies Record<Question, Text>,
  dontKnow: { en: "don't know", zh: '不知道', ja: 'わからない', ko: '모름', 'zh-Hant': '不知道' },
  unanswered: { en: 'unanswered', zh: '未回答', ja: '未回答', ko: '무응답', 'zh-Hant': '未回答' },
  learned: {
    en: 'Learned step order per entry (from every server; chance to fix after the evidence, kb place, tried / fixed):',
    zh: '各条目学到的步骤顺序（来自所有服务器；根据证据估计的解决概率、在 kb 中的位置、试过 / 解决）：', ja: '項目ごとに学習したステップ順（全サーバーのデータ。根拠から見た解決の見込み、kb での位置、試行 / 解決）：', ko: '항목별로 학습된 단계 순서 (모든 서버 기준, 근거 반영 후 해결 확률, kb 순서, 시도 / 해결):', 'zh-Hant': '各條目學到的步驟順序（來自所有伺服器；根據證據估計的解決機率、在 kb 中的位置、試過 / 解決）：',
  },
  learnedEntry: { en: '  {entry}: {state}, {confirmed} confirmed fix{es}{same}', zh: '  {entry}：{state}，{confirmed} 次用户确认的解决{same}', ja: '  {entry}：{state}、ユーザー確認済みの解決 {confirmed} 件{same}', ko: '  {entry}: {state}, 확인된 해결 {confirmed}건{same}', 'zh-Hant': '  {entry}：{state}，{confirmed} 次使用者確認的解決{same}' },
  modes: { on: { en: 'in use', zh: '已启用', ja: '使用中', ko: '사용 중', 'zh-Hant': '已啟用' }, suggest: { en: 'suggested only', zh: '仅作建议', ja: '提案のみ', ko: '제안만', 'zh-Hant': '僅作建議' }, off: { en: 'off', zh: '未启用', ja: '未使用', ko: '꺼짐', 'zh-Hant': '未啟用' } } satisfies Record<LearnedOrder['mode'], Text>,
  sameOrder: { en: ', same as the kb order', zh: '，与 kb 顺序相同', ja: '、kb の順序と同じ', ko: ', kb 순서와 같음', 'zh-Hant': '，與 kb 順序相同' },
  pinned: { en: ' pinned', zh: ' 已固定', ja: ' 固定', ko: ' 고정됨', 'zh-Hant': ' 已固定' },
  kept: { en: ' kept in place', zh: ' 位置保持不变', ja: ' 位置を維持', ko: ' 위치 유지', 'zh-Hant': ' 位置保持不變' },
  weeks: {
    en: 'Cases per week (week of / cases: confirmed / assumed / escalated / abandoned / stopped / open):',
    zh: '每周问题数（周一日期 / 问题数：用户确认解决 / 推断解决 / 转交人工 / 无回复 / 已结束 / 进行中）：', ja: '週ごとのケース数（週の開始日 / ケース数：確認済み解決 / 推定解決 / 引き継ぎ / 応答なし / 終了 / 進行中）：', ko: '주별 케이스 수 (주 시작일 / 케이스: 확인 / 추정 / 인계 / 응답 없음 / 중단 / 진행 중):', 'zh-Hant': '每週問題數（週一日期 / 問題數：使用者確認解決 / 推斷解決 / 轉交人工 / 無回覆 / 已結束 / 進行中）：',
  },
  unrecognized: {
    en: 'Most frequent errors the kb did not recognize (draft an entry: comfyoom kb draft FINGERPRINT):',
    zh: '知识库未能识别的最常见错误（起草条目：comfyoom kb draft 指纹）：', ja: 'kb が認識できなかったエラーのうち多いもの（項目の下書き：comfyoom kb draft FINGERPRINT）：', ko: 'kb가 인식하지 못한 가장 잦은 오류 (항목 초안 작성: comfyoom kb draft FINGERPRINT):', 'zh-Hant': '知識庫未能識別的最常見錯誤（起草條目：comfyoom kb draft 指紋）：',
  },
  perWeek: { en: '          per week: {weeks}', zh: '          每周：{weeks}', ja: '          週ごと：{weeks}', ko: '          주별: {weeks}', 'zh-Hant': '          每週：{weeks}' },
  more: { en: 'Not shown: {parts}. Everything: {seeAll}', zh: '未显示：{parts}。查看全部：{seeAll}', ja: '未表示：{parts}。すべて表示するには：{seeAll}', ko: '표시 안 함: {parts}. 전체 보기: {seeAll}', 'zh-Hant': '未顯示：{parts}。檢視全部：{seeAll}' },
  moreEntries: { en: '{n} more entries', zh: '另外 {n} 个条目', ja: 'ほか {n} 項目', ko: '항목 {n}개 더', 'zh-Hant': '另外 {n} 個條目' },
  moreSteps: { en: '{n} more steps of entries shown', zh: '已列条目的另外 {n} 个步骤', ja: '表示した項目のほか {n} ステップ', ko: '표시된 항목의 단계 {n}개 더', 'zh-Hant': '已列條目的另外 {n} 個步驟' },
  moreErrors: { en: '{n} more unrecognized errors', zh: '另外 {n} 个未识别的错误', ja: 'ほか {n} 件の未認識エラー', ko: '인식하지 못한 오류 {n}개 더', 'zh-Hant': '另外 {n} 個未識別的錯誤' },
  moreSections: { en: 'every step across entries, the learned step orders, cases per week', zh: '不分条目的步骤统计、学到的步骤顺序、每周问题数', ja: '項目をまたいだ全ステップ、学習したステップ順、週ごとのケース数', ko: '항목 구분 없는 모든 단계, 학습된 단계 순서, 주별 케이스 수', 'zh-Hant': '不分條目的步驟統計、學到的步驟順序、每週問題數' },
  comma: { en: ', ', zh: '、', ja: '、', ko: ', ', 'zh-Hant': '、' },
  colon: { en: ': ', zh: '：', ja: '：', ko: ': ', 'zh-Hant': '：' },
};

const fill = (text: Text, lang: Lang, values: Record<string, string | number> = {}) =>
  text[lang].replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A step's fix rate with the counts it comes from: "Lower the resolution — fixed 12 of 40 tried (30%), offered 60". */
export function fixRate(name: string, st: Pick<FunnelStep, 'offered' | 'tried' | 'fixed'>, lang: Lang): string {
  if (!st.tried) return fill(T.untried, lang, { step: name, offered: st.offered });
  return fill(T.step, lang, { step: name, fixed: st.fixed, tried: st.tried, rate: `${Math.round((st.fixed / st.tried) * 100)}%`, offered: st.offered });
}

export interface TextOptions {
  lang: Lang;
  names: Names;
  /** Every figure, titles followed by their ids; otherwise one screen. */
  all?: boolean;
  /** How this face asks for everything (`comfyoom stats --all`), named in a short report's last line. */
  seeAll: string;
}

export function statsText(s: Stats, { lang, names, all = false, seeAll }: TextOptions): string {
  const entry = (id: string) => (all ? `${names.entry(id)} (${id})` : names.entry(id));
  const stepName = (id: string) => (all ? `${names.step(id)} (${id})` : names.step(id));
  const top = <X>(xs: readonly X[], n: number) => (all ? xs : xs.slice(0, n));
  const stepLine = (st: FunnelStep) => `${fixRate(stepName(st.step), st, lang)}${all ? fill(T.stepMore, lang, { assumed: st.assumed, movedOn: st.movedOn }) : ''}`;
  const out: string[] = [];

  const where = [s.scope.platform, s.scope.server && fill(T.server, lang, { server: s.scope.server })].filter(Boolean).join(' ');
  out.push(fill(T.cases, lang, { cases: s.cases, where: where ? fill(T.where, lang, { where }) : '', since: s.since ? fill(T.since, lang, { date: day(s.since) }) : '' }));
  out.push(fill(T.outcomes, lang, Object.fromEntries(Object.entries(s.shares).map(([k, v]) => [k, pct(v)]))));
  const doubted = top(s.misdiagnosed.byEntry, GLANCE.misdiagnosed).map((e) => `${e.cases} × ${entry(e.entry)}`);
  out.push(fill(T.misdiagnosed, lang, { cases: s.misdiagnosed.cases, share: pct(s.misdiagnosed.share), entries: doubted.length ? `: ${doubted.join(', ')}` : '' }));
  const recent = top(s.misdiagnosed.recent, GLANCE.misdiagnosed);
  if (recent.length) out.push(fill(T.recent, lang, { cases: recent.map((r) => `${r.caseId}: ${entry(r.doubted)} -> ${entry(r.now)}`).join(', ') }));
  out.push(fill(T.median, lang, { steps: s.medianStepsToResolution ?? '-', minutes: s.medianMinutesToResolution ?? '-' }));
  out.push(fill(T.asked, lang, { cases: s.questions.casesAsked, s: s.questions.casesAsked === 1 ? '' : 's' }));
  for (const q of s.questions.byQuestion) {
    const answers = Object.entries(q.answers).map(([choice, n]) => `${choice === ('unknown' satisfies Choice) ? T.dontKnow[lang] : choice} ${n}`);
    out.push(fill(T.question, lang, { question: T.questions[q.question][lang], asked: q.asked, answers: [...answers, `${T.unanswered[lang]} ${q.unanswered}`].join(' · '), typed: q.typed }));
  }

  // Entries as cases ended, then those whose steps were offered only to cases that went on as another.
  const funnels = new Map(s.funnel.map((f) => [f.entry, f.steps]));
  const rows = [
    ...s.entries.map((e) => ({ ...e, steps: funnels.get(e.entry) ?? [] })),
    ...s.funnel.filter((f) => !s.entries.some((e) => e.entry === f.entry)).map((f) => ({ entry: f.entry, category: '', cases: 0, resolvedConfirmed: 0, resolvedAssumed: 0, escalated: 0, abandoned: 0, steps: f.steps })),
  ];
  const shown = top(rows, GLANCE.entries);
  let stepsLeft = 0;
  if (shown.length) out.push('', T.entries[lang]);
  for (const e of shown) {
    const category = all && e.category ? ` [${e.category}]` : '';
    out.push(`  ${String(e.cases).padStart(5)}  ${entry(e.entry)}${category}${T.colon[lang]}${e.resolvedConfirmed} / ${e.resolvedAssumed} / ${e.escalated} / ${e.abandoned}`);
    const steps = top(e.steps, GLANCE.steps);
    stepsLeft += e.steps.length - steps.length;
    for (const st of steps) out.push(`           ${stepLine(st)}`);
  }

  if (all && s.steps.length) {
    out.push('', T.steps[lang]);
    for (const st of s.steps) out.push(`  ${stepLine({ step: st.step, offered: st.reached, tried: st.tried, fixed: st.resolvedConfirmed, assumed: st.resolvedAssumed, movedOn: st.movedOn })}`);
  }
  if (all && s.learned?.length) {
    out.push('', T.learned[lang]);
    for (const l of s.learned) {
      out.push(fill(T.learnedEntry, lang, { entry: entry(l.entry), state: T.modes[l.mode][lang], confirmed: l.confirmed, es: l.confirmed === 1 ? '' : 'es', same: sameOrder(l) ? T.sameOrder[lang] : '' }));
      l.steps.forEach((st, i) => {
        const held = st.held === 'pin' ? T.pinned[lang] : st.held === 'rule' ? T.kept[lang] : '';
        out.push(`    ${String(i + 1).padStart(2)}. ${pct(st.chance).padStart(6)}  kb #${st.kbPlace + 1}  ${st.tried} / ${st.fixed}  ${stepName(st.step)}${held}`);
      });
    }
  }
  if (all && s.weeks.length) {
    out.push('', T.weeks[lang]);
    for (const w of s.weeks) {
      const counts = OUTCOMES.map((o) => w[o]);
      out.push(`  ${w.week}  ${String(counts.reduce((n, c) => n + c, 0)).padStart(6)}: ${counts.join(' / ')}`);
    }
  }

  const errors = top(s.unrecognized, GLANCE.errors);
  if (errors.length) out.push('', T.unrecognized[lang]);
  for (const u of errors) {
    out.push(`  ${String(u.cases).padStart(5)}  ${u.fingerprint}  ${entry(u.entry)}  ${(u.example ?? '').slice(0, 100)}`);
    if (all) out.push(fill(T.perWeek, lang, { weeks: u.weeks.map((w) => `${w.week} ${w.cases}`).join(', ') }));
  }

  if (!all && s.cases) {
    const parts = [
      rows.length > shown.length && fill(T.moreEntries, lang, { n: rows.length - shown.length }),
      stepsLeft > 0 && fill(T.moreSteps, lang, { n: stepsLeft }),
      s.unrecognized.length > errors.length && fill(T.moreErrors, lang, { n: s.unrecognized.length - errors.length }),
      T.moreSections[lang],
    ].filter((p): p is string => Boolean(p));
    out.push('', fill(T.more, lang, { parts: parts.join(T.comma[lang]), seeAll }));
  }
  return out.join('\n');
}

const sameOrder = (l: LearnedOrder) => l.learned.every((s, i) => s === l.kb[i]);
