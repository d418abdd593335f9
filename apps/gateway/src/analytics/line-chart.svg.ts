/**
 * A line chart as plain, accessible SVG, built as a string on the server: a title and a
 * description (role="img", aria-labelledby), both axes with their labels and ticks, one
 * line per series with its legend entry, and each series' points as a table-like list in
 * the description for screen readers. No script, no external reference: safe to embed
 * with <img src> and to open in a browser.
 */
export interface ChartPoint {
  at: Date;
  value: number | null;
}

export interface ChartSeries {
  name: string;
  points: ChartPoint[];
}

export interface LineChart {
  title: string;
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
}

const WIDTH = 720;
/** The plot's height; each series adds a legend row below the x axis label. */
const PLOT_HEIGHT = 360;
const LEGEND_ROW = 18;
const MARGIN = { top: 48, right: 24, bottom: 64, left: 72 };
/** Distinguishable for the common colour-vision deficiencies (Okabe–Ito). */
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#56B4E9', '#F0E442', '#000000'];
const Y_TICKS = 5;
const X_TICKS = 4;

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** A round step for ticks covering `span` in about `count` steps (1, 2 or 5 times a power of ten). */
function niceStep(span: number, count: number): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** A time tick's label: the date and minute in UTC (the chart spans minutes in a demo, months in production). */
function timeLabel(at: Date): string {
  return at.toISOString().slice(0, 16).replace('T', ' ');
}

export function renderLineChart(chart: LineChart): string {
  const HEIGHT = PLOT_HEIGHT + LEGEND_ROW * chart.series.length;
  const plotted = chart.series.map((s) => ({ ...s, points: s.points.filter((p): p is { at: Date; value: number } => p.value !== null) }));
  const all = plotted.flatMap((s) => s.points);
  const titleId = 'chart-title';
  const descId = 'chart-desc';
  const description = all.length === 0 ? 'No numbers collected yet.' : plotted.map((s) => `${s.name}: ${s.points.map((p) => `${p.value} at ${p.at.toISOString()}`).join('; ') || 'no numbers'}.`).join(' ');
  const head = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${titleId} ${descId}" font-family="sans-serif" font-size="12">`,
    `<title id="${titleId}">${escapeXml(chart.title)}</title>`,
    `<desc id="${descId}">${escapeXml(description)}</desc>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">${escapeXml(chart.title)}</text>`,
  ];
  const left = MARGIN.left;
  const right = WIDTH - MARGIN.right;
  const top = MARGIN.top;
  const bottom = PLOT_HEIGHT - MARGIN.bottom;
  const axes = [
    `<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="#333333"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${bottom}" stroke="#333333"/>`,
    `<text x="${(left + right) / 2}" y="${PLOT_HEIGHT - 20}" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`,
    `<text x="18" y="${(top + bottom) / 2}" text-anchor="middle" transform="rotate(-90 18 ${(top + bottom) / 2})">${escapeXml(chart.yLabel)}</text>`,
  ];
  if (all.length === 0) {
    return [...head, ...axes, `<text x="${(left + right) / 2}" y="${(top + bottom) / 2}" text-anchor="middle" fill="#555555">No numbers collected yet</text>`, '</svg>'].join('\n');
  }
  const times = all.map((p) => p.at.getTime());
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const tSpan = t1 - t0 || 1;
  const maxValue = Math.max(...all.map((p) => p.value), 0);
  const minValue = Math.min(...all.map((p) => p.value), 0);
  const step = niceStep(maxValue - minValue || 1, Y_TICKS);
  const yMin = Math.floor(minValue / step) * step;
  const yMax = Math.max(Math.ceil(maxValue / step) * step, yMin + step);
  const x = (t: number) => round(left + ((t - t0) / tSpan) * (right - left));
  const y = (v: number) => round(bottom - ((v - yMin) / (yMax - yMin)) * (bottom - top));
  const ticks: string[] = [];
  for (let v = yMin; v <= yMax + step / 2; v += step) {
    ticks.push(`<line x1="${left - 4}" y1="${y(v)}" x2="${right}" y2="${y(v)}" stroke="#e0e0e0"/>`, `<text x="${left - 8}" y="${y(v) + 4}" text-anchor="end">${round(v)}</text>`);
  }
  const xTicks = t1 === t0 ? [t0] : Array.from({ length: X_TICKS + 1 }, (_, i) => t0 + (tSpan * i) / X_TICKS);
  xTicks.forEach((t, i) => {
    // The end labels are anchored inwards so that none is cut at the edge.
    const anchor = xTicks.length === 1 ? 'middle' : i === 0 ? 'start' : i === xTicks.length - 1 ? 'end' : 'middle';
    ticks.push(`<line x1="${x(t)}" y1="${bottom}" x2="${x(t)}" y2="${bottom + 4}" stroke="#333333"/>`, `<text x="${x(t)}" y="${bottom + 18}" text-anchor="${anchor}">${timeLabel(new Date(t))}</text>`);
  });
  const lines = plotted.flatMap((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const path = s.points.map((p) => `${x(p.at.getTime())},${y(p.value)}`).join(' ');
    const legendY = PLOT_HEIGHT + LEGEND_ROW * i + 4;
    return [
      `<g aria-label="${escapeXml(s.name)}">`,
      `<polyline points="${path}" fill="none" stroke="${colour}" stroke-width="2"/>`,
      ...s.points.map((p) => `<circle cx="${x(p.at.getTime())}" cy="${y(p.value)}" r="2.5" fill="${colour}"/>`),
      '</g>',
      `<rect x="${left}" y="${legendY - 9}" width="10" height="10" fill="${colour}"/>`,
      `<text x="${left + 14}" y="${legendY}">${escapeXml(s.name)}</text>`,
    ];
  });
  return [...head, ...ticks, ...axes, ...lines, '</svg>'].join('\n');
}
