// The stats as one PNG, for moderators who would rather look than read: cases per week by outcome,
// and per entry a funnel of its steps (offered, tried, fixed). Chart.js draws each chart on a
// server-side canvas (@napi-rs/canvas, no browser); the fonts are Noto Sans SC and KR, installed
// with the project, so Chinese, Japanese and Korean step titles render without any system font and
// nothing is downloaded.
import { createRequire } from 'node:module';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { Chart, registerables, type ChartConfiguration } from 'chart.js';
import type { Lang } from '../i18n/messages.ts';
import { OUTCOMES, type Outcome, type Stats } from './figures.ts';

Chart.register(...registerables);

const FONT = 'Noto Sans SC';
const WIDTH = 1600;
const PANEL = { width: 800, height: 420 };
const HEADER = 90;
const WEEKS_HEIGHT = 420;
/** Entries drawn, most cases first: a moderator's glance, not a report (the text with `all` has them all). */
const MAX_ENTRIES = 6;
/** Steps drawn per entry, most offered first. */
const MAX_STEPS = 8;

const COLORS: Record<Outcome, string> = {
  resolvedConfirmed: '#2e7d32',
  resolvedAssumed: '#81c784',
  escalated: '#ef6c00',
  abandoned: '#9e9e9e',
  cancelled: '#616161',
  open: '#42a5f5',
};
const FUNNEL = [
  { key: 'offered', color: '#90a4ae' },
  { key: 'tried', color: '#42a5f5' },
  { key: 'fixed', color: '#2e7d32' },
] as const;

const T = {
  title: { en: 'ComfyOOM stats', zh: 'ComfyOOM 统计', ja: 'ComfyOOM の統計', ko: 'ComfyOOM 통계', 'zh-Hant': 'ComfyOOM 統計' },
  server: { en: 'server {server}', zh: '服务器 {server}', ja: 'サーバー {server}', ko: '서버 {server}', 'zh-Hant': '伺服器 {server}' },
  period: { en: '{from} → {until}', zh: '{from} → {until}', ja: '{from} → {until}', ko: '{from} → {until}', 'zh-Hant': '{from} → {until}' },
  allTime: { en: 'all cases to {until}', zh: '截至 {until} 的全部问题', ja: '{until} までのすべてのケース', ko: '{until}까지의 모든 케이스', 'zh-Hant': '截至 {until} 的全部問題' },
  subtitle: {
    en: '{cases} cases · each step offered / tried / fixed, for the top {shown} of {entries} entries (most cases first)',
    zh: '{cases} 个问题 · 各步骤 提供 / 尝试 / 解决，显示问题最多的前 {shown} 个条目（共 {entries} 个）', ja: 'ケース {cases} 件 · 各ステップの提示 / 試行 / 解決（{entries} 項目のうち、ケースの多い上位 {shown} 項目）', ko: '케이스 {cases}개 · 단계별 제안 / 시도 / 해결, 항목 {entries}개 중 상위 {shown}개 (케이스 많은 순)', 'zh-Hant': '{cases} 個問題 · 各步驟 提供 / 嘗試 / 解決，顯示問題最多的前 {shown} 個條目（共 {entries} 個）',
  },
  weeks: { en: 'Cases per week, by outcome', zh: '每周问题数（按结果）', ja: '週ごとのケース数（結果別）', ko: '주별 케이스 수 (결과별)', 'zh-Hant': '每週問題數（按結果）' },
  offered: { en: 'offered', zh: '提供', ja: '提示', ko: '제안', 'zh-Hant': '提供' },
  tried: { en: 'tried', zh: '尝试', ja: '試行', ko: '시도', 'zh-Hant': '嘗試' },
  fixed: { en: 'fixed (confirmed)', zh: '解决（已确认）', ja: '解決（確認済み）', ko: '해결 (확인됨)', 'zh-Hant': '解決（已確認）' },
  none: { en: 'No cases in this period.', zh: '这段时间没有问题记录。', ja: 'この期間のケースはありません。', ko: '이 기간에는 케이스가 없어요.', 'zh-Hant': '這段時間沒有問題記錄。' },
  outcomes: {
    resolvedConfirmed: { en: 'fixed (confirmed)', zh: '解决（已确认）', ja: '解決（確認済み）', ko: '해결 (확인됨)', 'zh-Hant': '解決（已確認）' },
    resolvedAssumed: { en: 'fixed (assumed)', zh: '解决（推断）', ja: '解決（推定）', ko: '해결 (추정)', 'zh-Hant': '解決（推斷）' },
    escalated: { en: 'handed to helpers', zh: '转交人工', ja: 'ヘルパーに引き継ぎ', ko: '도우미에게 인계', 'zh-Hant': '轉交人工' },
    abandoned: { en: 'abandoned', zh: '无回复', ja: '応答なし', ko: '응답 없음', 'zh-Hant': '無回覆' },
    cancelled: { en: 'stopped', zh: '已结束', ja: '終了', ko: '중단', 'zh-Hant': '已結束' },
    open: { en: 'open', zh: '进行中', ja: '進行中', ko: '진행 중', 'zh-Hant': '進行中' },
  } satisfies Record<Outcome, Record<Lang, string>>,
};

let fontsLoaded = false;
/**
 * Registers every slice of the bundled fonts under one family: Skia falls back across them glyph
 * by glyph. Noto Sans SC draws Latin, Chinese (both scripts) and kana; Noto Sans KR the hangul it lacks.
 */
function loadFonts(): void {
  if (fontsLoaded) return;
  for (const pkg of ['@fontsource-variable/noto-sans-sc', '@fontsource-variable/noto-sans-kr']) {
    const files = join(dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), 'files');
    for (const f of readdirSync(files).filter((n) => n.endsWith('.woff2'))) GlobalFonts.registerFromPath(join(files, f), FONT);
  }
  fontsLoaded = true;
}

/** Names for entries and steps in the moderator's language; ids when the kb does not know them. */
export interface Names {
  entry(id: string): string;
  step(id: string): string;
}

const ids: Names = { entry: (id) => id, step: (id) => id };

/** Draws one chart on its own canvas and copies it onto the sheet at (x, y). */
function place(sheet: SKRSContext2D, config: ChartConfiguration, x: number, y: number, width: number, height: number): void {
  const canvas = createCanvas(width, height);
  // Chart.js takes any 2D context; it only needs its canvas's size, which a server canvas has.
  const chart = new Chart(canvas.getContext('2d') as unknown as ConstructorParameters<typeof Chart>[0], {
    ...config,
    options: { ...config.options, responsive: false, animation: false, devicePixelRatio: 1, layout: { padding: { top: 12, left: 8, right: 16, bottom: 8 } } } as never,
  });
  sheet.drawImage(canvas, x, y);
  // Destroying clears its canvas, so only once copied; undestroyed charts stay in Chart.js's registry.
  chart.destroy();
}

const title = (text: string | string[]) => ({ display: true, text, font: { family: FONT, size: 18, weight: 'bold' as const } });
const legend = { labels: { font: { family: FONT, size: 13 } } };
const ticks = { font: { family: FONT, size: 12 } };

const fill = (text: Record<Lang, string>, lang: Lang, values: Record<string, string | number>) => text[lang].replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** What the sheet shows: its header lines and each chart's configuration, before anything is drawn. */
export interface ChartLayout {
  title: string;
  subtitle: string;
  /** Cases per week, when there are any. */
  weeks?: ChartConfiguration;
  funnels: ChartConfiguration[];
}

export function chartLayout(s: Stats, lang: Lang, names: Names = ids): ChartLayout {
  const entries = s.funnel.slice(0, MAX_ENTRIES);
  const where = [s.scope.platform, s.scope.server && fill(T.server, lang, { server: s.scope.server })].filter(Boolean).join(' ');
  const period = s.since ? fill(T.period, lang, { from: day(s.since), until: day(s.until) }) : fill(T.allTime, lang, { until: day(s.until) });
  return {
    title: [T.title[lang], where, period].filter(Boolean).join(' · '),
    subtitle: fill(T.subtitle, lang, { cases: s.cases, shown: entries.length, entries: s.funnel.length }),
    ...(s.weeks.length && {
      weeks: {
        type: 'bar',
        data: {
          labels: s.weeks.map((w) => w.week),
          datasets: OUTCOMES.map((o) => ({ label: T.outcomes[o][lang], data: s.weeks.map((w) => w[o]), backgroundColor: COLORS[o] })),
        },
        options: { plugins: { title: title(T.weeks[lang]), legend }, scales: { x: { stacked: true, ticks }, y: { stacked: true, ticks } } },
      },
    }),
    funnels: entries.map((e) => {
      const steps = e.steps.slice(0, MAX_STEPS);
      return {
        type: 'bar',
        data: {
          // Whole titles, broken into lines: a label cut short would hide which step it is.
          labels: steps.map((st) => wrap(names.step(st.step), LABEL_COLUMNS)),
          datasets: FUNNEL.map((f) => ({ label: T[f.key][lang], data: steps.map((st) => st[f.key]), backgroundColor: f.color })),
        },
        // Chart.js skips labels it finds no room for; wrapped ones must all stay.
        options: { indexAxis: 'y', plugins: { title: title(wrap(names.entry(e.entry), TITLE_COLUMNS)), legend }, scales: { x: { ticks }, y: { ticks: { ...ticks, autoSkip: false } } } },
      };
    }),
  };
}

/** The stats as a PNG, its labels in `lang`. */
export function statsChart(s: Stats, lang: Lang, names: Names = ids): Buffer {
  loadFonts();
  Chart.defaults.font.family = FONT;
  const layout = chartLayout(s, lang, names);
  const rows = Math.ceil(layout.funnels.length / 2);
  const canvas = createCanvas(WIDTH, HEADER + WEEKS_HEIGHT + rows * PANEL.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#212121';
  ctx.font = `bold 30px "${FONT}"`;
  ctx.fillText(layout.title, 24, 48);
  ctx.font = `16px "${FONT}"`;
  ctx.fillText(layout.subtitle, 24, 76);
  if (layout.weeks) place(ctx, layout.weeks, 0, HEADER, WIDTH, WEEKS_HEIGHT);
  else ctx.fillText(T.none[lang], 24, HEADER + 40);
  layout.funnels.forEach((config, i) => place(ctx, config, (i % 2) * PANEL.width, HEADER + WEEKS_HEIGHT + Math.floor(i / 2) * PANEL.height, PANEL.width, PANEL.height));
  return canvas.toBuffer('image/png');
}

/** A step's title on a bar, in columns (a Chinese character takes two): about a quarter of a panel. */
const LABEL_COLUMNS = 30;
/** An entry's title over its panel. */
const TITLE_COLUMNS = 64;

const WIDE_CHARS = '\\u2e80-\\u9fff\\uf900-\\ufaff\\ufe30-\\ufe4f\\uff00-\\uffef';
const WIDE = new RegExp(`[${WIDE_CHARS}]`);
/** A Chinese character or a word, with the punctuation that must not start or end a line; or spaces. */
const TOKEN = new RegExp(`[（《「『]*(?:[${WIDE_CHARS}]|[^\\s${WIDE_CHARS}]+)[）》」』，。、：；！？]*|\\s+`, 'g');
const columns = (text: string) => [...text].reduce((n, c) => n + (WIDE.test(c) ? 2 : 1), 0);

/**
 * Breaks a title into lines of about `width` columns, between words or between Chinese
 * characters, never inside a word: a word longer than a line (a flag, an env var) gets its own.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const token of text.match(TOKEN) ?? []) {
    if (line.trim() && columns(line.trimEnd() + token) > width && token.trim()) {
      lines.push(line.trimEnd());
      line = '';
    }
    if (line || token.trim()) line += token;
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}
