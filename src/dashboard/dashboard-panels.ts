import { type BarChart, barChartSvg } from './bar-chart-svg.js';
import type { RepositoryDashboard } from './dashboard-model.js';
import { escapeHtml } from './html-escape.js';

interface Line {
  readonly label: string;
  readonly color: string;
  readonly dashed?: boolean;
  readonly values: readonly (number | null)[];
}

/** A time chart the browser script draws with the library: x in seconds since 1970. */
export interface TimeChart {
  readonly id: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly x: readonly number[];
  readonly series: readonly Line[];
}

export type Cell = string | number | null;

export interface Panel {
  readonly title: string;
  /** The chart's markup, or why there is none: a panel never pretends to have data. */
  readonly chart: string | { readonly empty: string };
  readonly note?: string;
  readonly table: { readonly head: readonly string[]; readonly rows: readonly Cell[][] };
}

const BLUE = '#0550ae';
const RED = '#cf222e';
const PURPLE = '#8250df';
const GREEN = '#1a7f37';
const TIME = 'Time of the check (UTC)';

/**
 * The eight panels of one repository, in reading order. Time charts are added to `charts`, for
 * the browser script to draw; bar charts come as SVG in the panel itself.
 */
export function repositoryPanels(
  repository: RepositoryDashboard,
  id: string,
  charts: TimeChart[],
): Panel[] {
  return [
    costPanel(repository, id, charts),
    corePanel(repository, id, charts),
    rulePanel(repository, id),
    fixPanel(repository, id),
    filePanel(repository, id),
    overridePanel(repository, id),
    predictionPanel(repository, id, charts),
    spendPanel(repository, id, charts),
  ];
}

function costPanel(repository: RepositoryDashboard, id: string, charts: TimeChart[]): Panel {
  const { checks } = repository;
  return {
    title: 'Cost per change against the budget',
    chart: timeChart(
      charts,
      {
        id: `${id}-cost`,
        xLabel: TIME,
        yLabel: 'Points',
        x: checks.map((check) => seconds(check.at)),
        series: [
          { label: 'Cost of the change', color: BLUE, values: checks.map((check) => check.cost) },
          {
            label: 'Budget (block)',
            color: RED,
            dashed: true,
            values: checks.map((c) => c.budget),
          },
        ],
      },
      'no check is recorded yet.',
    ),
    table: {
      head: ['Time (UTC)', 'Commit', 'Source', 'Verdict', 'Cost', 'Budget', 'Let through by: why'],
      rows: checks.map((check) => [
        check.at,
        check.head?.slice(0, 12) ?? null,
        check.source,
        check.verdict,
        check.cost,
        check.budget,
        check.override === null ? null : `${check.override.by}: ${check.override.reason}`,
      ]),
    },
  };
}

function corePanel(repository: RepositoryDashboard, id: string, charts: TimeChart[]): Panel {
  const { core } = repository;
  const share = (value: number, budget: number) =>
    budget > 0 ? Math.round((value / budget) * 1000) / 10 : null;
  return {
    title: 'Budget use of the core',
    chart: timeChart(
      charts,
      {
        id: `${id}-core`,
        xLabel: TIME,
        yLabel: '% of budget',
        x: core.map((point) => seconds(point.at)),
        series: [
          {
            label: 'Lines of code (of core_loc.hard)',
            color: BLUE,
            values: core.map((p) => share(p.loc, p.locHard)),
          },
          {
            label: 'Files (of core_files)',
            color: PURPLE,
            values: core.map((p) => share(p.files, p.filesBudget)),
          },
          {
            label: 'Modules (of core_modules)',
            color: GREEN,
            values: core.map((p) => share(p.modules, p.modulesBudget)),
          },
        ],
      },
      'no check has recorded the size of the core yet (checks by this version of AUREUS do).',
    ),
    table: {
      head: [
        'Time (UTC)',
        'Lines of code',
        'LOC target',
        'LOC hard',
        'Files',
        'Files budget',
        'Modules',
        'Modules budget',
      ],
      rows: core.map((p) => [
        p.at,
        p.loc,
        p.locTarget,
        p.locHard,
        p.files,
        p.filesBudget,
        p.modules,
        p.modulesBudget,
      ]),
    },
  };
}

function rulePanel(repository: RepositoryDashboard, id: string): Panel {
  const rows = repository.findingsByRule;
  return {
    title: 'Findings by rule',
    chart: barPanel(
      {
        id: `${id}-rules`,
        title: 'Findings by rule',
        rowAxis: 'Rule',
        valueAxis: 'Findings',
        rows: rows.map((row) => ({
          label: row.rule,
          segments: [
            { name: 'new', value: row.new, tone: 'tone-new' },
            { name: 'worsened', value: row.worsened, tone: 'tone-worsened' },
            { name: 'baseline', value: row.baseline, tone: 'tone-baseline' },
          ],
        })),
      },
      'no check has recorded a finding.',
    ),
    note: 'New and worsened: summed over the checks. Baseline: at the latest check. Fixed: in the next panel.',
    table: {
      head: ['Rule', 'New', 'Worsened', 'Baseline'],
      rows: rows.map((row) => [row.rule, row.new, row.worsened, row.baseline]),
    },
  };
}

function fixPanel(repository: RepositoryDashboard, id: string): Panel {
  const rows = repository.fixesByRule;
  return {
    title: 'Findings fixed by rule',
    chart: barPanel(
      {
        id: `${id}-fixes`,
        title: 'Findings fixed by rule',
        rowAxis: 'Rule',
        valueAxis: 'Findings fixed',
        rows: rows.map((row) => ({
          label: row.rule,
          segments: [{ name: 'fixed', value: row.fixes, tone: 'tone-fixed' }],
        })),
      },
      'no check has found a finding gone that the check before it had.',
    ),
    note: 'A finding is fixed when a check lists it and the next check of the same line of history (its base is the first one’s head) no longer does, as aureus memory patterns counts it; checks whose record lists no findings prove no fix.',
    table: {
      head: ['Rule', 'Week (from Monday, UTC)', 'Fixed'],
      rows: rows.flatMap((row) => row.weeks.map((week) => [row.rule, week.week, week.fixes])),
    },
  };
}

function filePanel(repository: RepositoryDashboard, id: string): Panel {
  const files = repository.costliestFiles;
  return {
    title: 'Costliest files',
    chart: barPanel(
      {
        id: `${id}-files`,
        title: 'Costliest files',
        rowAxis: 'File',
        valueAxis: 'Points, summed over the checks',
        rows: files.map((file) => ({
          label: file.path,
          segments: [{ name: 'points', value: Math.max(0, file.points), tone: 'tone-points' }],
        })),
      },
      'no check has recorded what its files cost.',
    ),
    table: {
      head: ['File', 'Points', 'Checks'],
      rows: files.map((file) => [file.path, file.points, file.checks]),
    },
  };
}

function overridePanel(repository: RepositoryDashboard, id: string): Panel {
  const rows = repository.overrides;
  return {
    title: 'Overrides by rule and person',
    chart: barPanel(
      {
        id: `${id}-overrides`,
        title: 'Overrides by rule and person',
        rowAxis: 'Rule — person',
        valueAxis: 'Overrides',
        rows: rows.map((row) => ({
          label: `${row.rule} — ${row.by}`,
          segments: [{ name: 'overrides', value: row.count, tone: 'tone-overrides' }],
        })),
      },
      'no change was let through by an override or a policy approval.',
    ),
    table: {
      head: ['Rule', 'Person', 'Overrides'],
      rows: rows.map((row) => [row.rule, row.by, row.count]),
    },
  };
}

function predictionPanel(repository: RepositoryDashboard, id: string, charts: TimeChart[]): Panel {
  const runs = repository.prediction;
  return {
    title: 'Prediction error of the cost model',
    chart: timeChart(
      charts,
      {
        id: `${id}-prediction`,
        xLabel: 'Time of the builder run (UTC)',
        yLabel: 'Points',
        x: runs.map((run) => seconds(run.at)),
        series: [
          {
            label: 'Estimated',
            color: BLUE,
            dashed: true,
            values: runs.map((run) => run.estimated),
          },
          { label: 'Actual', color: RED, values: runs.map((run) => run.actual) },
        ],
      },
      'no builder run has recorded both its estimate and its actual cost.',
    ),
    note: 'Estimate against actual cost of the builder’s runs; checks made by people carry no estimate.',
    table: {
      head: ['Time (UTC)', 'Run', 'Estimated', 'Actual', 'Error'],
      rows: runs.map((run) => [run.at, run.run, run.estimated, run.actual, run.error]),
    },
  };
}

function spendPanel(repository: RepositoryDashboard, id: string, charts: TimeChart[]): Panel {
  const spend = repository.spend;
  return {
    title: 'Builder spend',
    chart: timeChart(
      charts,
      {
        id: `${id}-spend`,
        xLabel: 'Time of the run (UTC)',
        yLabel: 'US dollars',
        x: spend.map((point) => seconds(point.at)),
        series: [{ label: 'Model spend', color: PURPLE, values: spend.map((point) => point.usd) }],
      },
      'no run of the builder or of simplify has asked a model.',
    ),
    table: {
      head: ['Time (UTC)', 'Kind', 'US dollars', 'Tokens'],
      rows: spend.map((point) => [point.at, point.kind, point.usd, point.tokens]),
    },
  };
}

/** Registers a time chart for the browser script and returns its place, or why it has none. */
function timeChart(
  charts: TimeChart[],
  chart: TimeChart,
  empty: string,
): string | { empty: string } {
  if (chart.x.length === 0) return { empty };
  charts.push(chart);
  const legend = chart.series
    .map(
      (line) =>
        `<li><span class="swatch" style="background:${line.color}"></span>${escapeHtml(line.label)}${line.dashed ? ' (dashed)' : ''}</li>`,
    )
    .join('');
  return `<div class="chart" id="${chart.id}" role="img" aria-label="${escapeHtml(`${chart.yLabel} over ${chart.xLabel}`)}" data-chart="${chart.id}"></div><ul class="legend">${legend}</ul>`;
}

function barPanel(chart: BarChart, empty: string): string | { empty: string } {
  if (chart.rows.length === 0) return { empty };
  const tones = new Map<string, string>();
  for (const row of chart.rows)
    for (const segment of row.segments) tones.set(segment.tone, segment.name);
  const legend = [...tones]
    .map(
      ([tone, name]) =>
        `<li><svg class="swatch" aria-hidden="true" viewBox="0 0 14 14"><rect class="${tone}" width="14" height="14"/></svg>${escapeHtml(name)}</li>`,
    )
    .join('');
  return `${barChartSvg(chart)}<ul class="legend">${legend}</ul>`;
}

const seconds = (at: string) => Date.parse(at) / 1000;
