// The stats as one PNG, for moderators who would rather look than read: cases per week by outcome,
// and per entry a funnel of its steps (offered, tried, fixed). Chart.js draws each chart on a
// server-side canvas (@napi-rs/canvas, no browser); the font is Noto Sans SC, installed with the
// project, so Chinese step titles render without any system font and nothing is downloaded.
import { createRequire } from 'node:module';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { Chart, registerables, type ChartConfiguration } from 'chart.js';
import type { Lang } from '../i18n/messages.ts';
import { OUTCOMES, type Outcome, type Stats } from '../store/stats.ts';

Chart.register(...registerables);

const FONT = 'Noto Sans SC';
const WIDTH = 1600;
const PANEL = { width: 800, height: 420 };
const HEADER = 90;
const WEEKS_HEIGHT = 420;
/** Entries drawn, most cases first: a moderator's glance, not a report (the text has them all). */
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
  title: { en: 'ComfyOOM stats', zh: 'ComfyOOM 统计' },
  weeks: { en: 'Cases per week, by outcome', zh: '每周问题数（按结果）' },
  funnel: { en: '{entry}: each step offered / tried / fixed', zh: '{entry}：各步骤 提供 / 尝试 / 解决' },
  offered: { en: 'offered', zh: '提供' },
  tried: { en: 'tried', zh: '尝试' },
  fixed: { en: 'fixed (confirmed)', zh: '解决（已确认）' },
  none: { en: 'No cases in this period.', zh: '这段时间没有问题记录。' },
  outcomes: {
    resolvedConfirmed: { en: 'fixed (confirmed)', zh: '解决（已确认）' },
    resolvedAssumed: { en: 'fixed (assumed)', zh: '解决（推断）' },
    escalated: { en: 'handed to helpers', zh: '转交人工' },
    abandoned: { en: 'abandoned', zh: '无回复' },
    cancelled: { en: 'stopped', zh: '已结束' },
    open: { en: 'open', zh: '进行中' },
  } satisfies Record<Outcome, Record<Lang, string>>,
};

let fontsLoaded = false;
/** Registers every slice of the bundled font under one family: Skia falls back across them glyph by glyph. */
function loadFonts(): void {
  if (fontsLoaded) return;
  const files = join(dirname(createRequire(import.meta.url).resolve('@fontsource-variable/noto-sans-sc/package.json')), 'files');
  for (const f of readdirSync(files).filter((n) => n.endsWith('.woff2'))) GlobalFonts.registerFromPath(join(files, f), FONT);
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

const title = (text: string) => ({ display: true, text, font: { family: FONT, size: 18, weight: 'bold' as const } });
const legend = { labels: { font: { family: FONT, size: 13 } } };
const ticks = { font: { family: FONT, size: 12 } };

/** The stats as a PNG, its labels in `lang`. */
export function statsChart(s: Stats, lang: Lang, names: Names = ids): Buffer {
  loadFonts();
  Chart.defaults.font.family = FONT;
  const entries = s.funnel.slice(0, MAX_ENTRIES);
  const rows = Math.ceil(entries.length / 2);
  const canvas = createCanvas(WIDTH, HEADER + WEEKS_HEIGHT + rows * PANEL.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#212121';
  ctx.font = `bold 30px "${FONT}"`;
  ctx.fillText(T.title[lang], 24, 48);
  ctx.font = `16px "${FONT}"`;
  const where = [s.scope.platform, s.scope.server].filter(Boolean).join(' ');
  const since = s.since ? ` · ${new Date(s.since).toISOString().slice(0, 10)} →` : '';
  ctx.fillText(`${s.cases} ${lang === 'zh' ? '个问题' : 'cases'}${where ? ` · ${where}` : ''}${since}`, 24, 76);

  if (!s.weeks.length) {
    ctx.fillText(T.none[lang], 24, HEADER + 40);
  } else {
    place(
      ctx,
      {
        type: 'bar',
        data: {
          labels: s.weeks.map((w) => w.week),
          datasets: OUTCOMES.map((o) => ({ label: T.outcomes[o][lang], data: s.weeks.map((w) => w[o]), backgroundColor: COLORS[o] })),
        },
        options: { plugins: { title: title(T.weeks[lang]), legend }, scales: { x: { stacked: true, ticks }, y: { stacked: true, ticks } } },
      },
      0,
      HEADER,
      WIDTH,
      WEEKS_HEIGHT,
    );
  }

  entries.forEach((e, i) => {
    const steps = e.steps.slice(0, MAX_STEPS);
    place(
      ctx,
      {
        type: 'bar',
        data: {
          labels: steps.map((st) => truncate(names.step(st.step), 34)),
          datasets: FUNNEL.map((f) => ({ label: T[f.key][lang], data: steps.map((st) => st[f.key]), backgroundColor: f.color })),
        },
        options: { indexAxis: 'y', plugins: { title: title(T.funnel[lang].replace('{entry}', truncate(names.entry(e.entry), 48))), legend }, scales: { x: { ticks }, y: { ticks } } },
      },
      (i % 2) * PANEL.width,
      HEADER + WEEKS_HEIGHT + Math.floor(i / 2) * PANEL.height,
      PANEL.width,
      PANEL.height,
    );
  });
  return canvas.toBuffer('image/png');
}

const truncate = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
