import { escapeHtml } from './html-escape.js';

export interface BarSegment {
  readonly name: string;
  readonly value: number;
  /** A class of the stylesheet: colours live in one place, with their contrast. */
  readonly tone: string;
}

export interface BarRow {
  readonly label: string;
  readonly segments: readonly BarSegment[];
}

export interface BarChart {
  readonly id: string;
  readonly title: string;
  /** What the rows are (rule, file, …): the vertical axis. */
  readonly rowAxis: string;
  /** What the bars measure: the horizontal axis. */
  readonly valueAxis: string;
  readonly rows: readonly BarRow[];
}

/** Units of the viewBox: about one pixel on a phone, a little more on a wide screen. */
const WIDTH = 400;
const ROW = 36;
const TOP = 24;
const BOTTOM = 44;
const VALUE_ROOM = 56;
const MAX_LABEL = 56;

/**
 * Horizontal stacked bars drawn as SVG at render time: categories with long names (paths,
 * people) read best as a label over each bar, which also keeps the chart whole at phone width.
 * Every label is escaped; a long one is cut, its full text kept in the bar's <title>.
 */
export function barChartSvg(chart: BarChart): string {
  const max = Math.max(1, ...chart.rows.map((row) => sum(row.segments)));
  const span = WIDTH - VALUE_ROOM;
  const height = TOP + chart.rows.length * ROW + BOTTOM;
  const rows = chart.rows.map((row, index) => {
    const y = TOP + index * ROW;
    let x = 0;
    const bars = row.segments.map((segment) => {
      const width = (segment.value / max) * span;
      const bar = `<rect class="${segment.tone}" x="${fixed(x)}" y="${y + 16}" width="${fixed(width)}" height="14"><title>${escapeHtml(`${row.label}: ${segment.value} ${segment.name}`)}</title></rect>`;
      x += width;
      return bar;
    });
    return [
      `<text class="bar-label" x="0" y="${y + 11}">${escapeHtml(cut(row.label))}</text>`,
      ...bars,
      `<text class="bar-value" x="${fixed(x + 6)}" y="${y + 27}">${round(sum(row.segments))}</text>`,
    ].join('');
  });
  const axisY = TOP + chart.rows.length * ROW + 4;
  const ticks = [0, max / 2, max].map(
    (value) =>
      `<text class="tick" x="${fixed((value / max) * span)}" y="${axisY + 16}" text-anchor="${value === 0 ? 'start' : 'middle'}">${round(value)}</text>`,
  );
  return [
    `<svg class="bars" data-chart="${escapeHtml(chart.id)}" data-points="${chart.rows.length}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${escapeHtml(chart.id)}-title">`,
    `<title id="${escapeHtml(chart.id)}-title">${escapeHtml(chart.title)}: ${escapeHtml(chart.valueAxis)} by ${escapeHtml(chart.rowAxis)}</title>`,
    `<text class="axis-label" data-axis="y" x="0" y="12">${escapeHtml(chart.rowAxis)}</text>`,
    ...rows,
    `<line class="axis" x1="0" y1="${axisY}" x2="${span}" y2="${axisY}"/>`,
    ...ticks,
    `<text class="axis-label" data-axis="x" x="${span / 2}" y="${axisY + 36}" text-anchor="middle">${escapeHtml(chart.valueAxis)}</text>`,
    '</svg>',
  ].join('');
}

const sum = (segments: readonly BarSegment[]) => segments.reduce((a, s) => a + s.value, 0);
const round = (value: number) => String(Math.round(value * 100) / 100);
const fixed = (value: number) => value.toFixed(1);
const cut = (label: string) =>
  label.length > MAX_LABEL ? `…${label.slice(label.length - MAX_LABEL + 1)}` : label;
