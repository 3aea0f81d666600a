import { createHash } from 'node:crypto';
import { DASHBOARD_BROWSER_SCRIPT } from './dashboard-browser-script.js';
import type { DashboardModel, RepositoryDashboard } from './dashboard-model.js';
import { type Panel, repositoryPanels, type TimeChart } from './dashboard-panels.js';
import { DASHBOARD_STYLES } from './dashboard-styles.js';
import { escapeHtml, jsonForScript } from './html-escape.js';

/** The chart library's own files, inlined so the page needs nothing at view time. */
export interface ChartLibrary {
  readonly script: string;
  readonly css: string;
}

/**
 * The dashboard as one HTML file: the chart library and the page's script inlined, the data in
 * a JSON element, and a Content-Security-Policy that allows those two scripts by hash and no
 * network at all, so a ledger string that slipped past escaping could still run nothing.
 */
export function renderDashboardHtml(model: DashboardModel, library: ChartLibrary): string {
  const charts: TimeChart[] = [];
  const sections = model.repositories.map((repository, index) =>
    repositorySection(repository, `r${index}`, charts),
  );
  const scripts = [library.script.replaceAll('</script', '<\\/script'), DASHBOARD_BROWSER_SCRIPT];
  const hashes = scripts.map((script) => `'sha256-${sha256(script)}'`).join(' ');
  const csp = `default-src 'none'; script-src ${hashes}; style-src 'unsafe-inline'; img-src data:`;
  const nav = model.repositories
    .map(
      (repository, index) =>
        `<li><a href="#r${index}">${escapeHtml(repository.name)}</a> (${repository.checks.length} checks)</li>`,
    )
    .join('');
  const since = model.since === null ? '' : ` since ${escapeHtml(model.since)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>AUREUS report</title>
<style>${library.css}</style>
<style>${DASHBOARD_STYLES}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the report</a>
<header>
<h1>AUREUS report</h1>
<p>Cost, budgets, findings, overrides and spend from ${model.repositories.length} ledger(s)${since}.</p>
<nav aria-label="Repositories"><ul>${nav}</ul></nav>
</header>
<main id="main">
${sections.join('\n')}
</main>
<script type="application/json" id="chart-data">${jsonForScript(charts)}</script>
${scripts.map((script) => `<script>${script}</script>`).join('\n')}
</body>
</html>
`;
}

function repositorySection(
  repository: RepositoryDashboard,
  id: string,
  charts: TimeChart[],
): string {
  const warning =
    repository.verified && repository.damaged === 0
      ? ''
      : `<p class="warning" role="note">This ledger does not verify: ${repository.damaged} damaged or missing line(s) are left out (aureus ledger verify says more).</p>`;
  const panels = repositoryPanels(repository, id, charts);
  return `<section id="${id}" aria-labelledby="${id}-name">
<h2 id="${id}-name">${escapeHtml(repository.name)}</h2>
<p>${repository.checks.length} check(s) recorded.</p>${warning}
<div class="panels">${panels.map(renderPanel).join('\n')}</div>
</section>`;
}

function renderPanel(panel: Panel): string {
  const chart =
    typeof panel.chart === 'string'
      ? `<figure>${panel.chart}</figure>`
      : `<p class="empty">No data yet: ${escapeHtml(panel.chart.empty)}</p>`;
  const note = panel.note === undefined ? '' : `<p>${escapeHtml(panel.note)}</p>`;
  const table =
    panel.table.rows.length === 0
      ? ''
      : `<details><summary>${escapeHtml(panel.title)}: the data as a table</summary><div class="table-wrap" tabindex="0" role="region" aria-label="${escapeHtml(panel.title)} table">${renderTable(panel.table)}</div></details>`;
  return `<div class="panel"><h3>${escapeHtml(panel.title)}</h3>${chart}${note}${table}</div>`;
}

function renderTable(table: Panel['table']): string {
  const head = table.head.map((cell) => `<th scope="col">${escapeHtml(cell)}</th>`).join('');
  const rows = table.rows.map(
    (row) =>
      `<tr>${row
        .map((cell) =>
          typeof cell === 'number'
            ? `<td class="num">${cell}</td>`
            : typeof cell === 'string' && ISO_TIME.test(cell)
              ? `<td class="time">${escapeHtml(cell.slice(0, 19).replace('T', ' '))}</td>`
              : `<td class="text">${escapeHtml(cell ?? '—')}</td>`,
        )
        .join('')}</tr>`,
  );
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** A ledger's `at`: shown to the second, in UTC as the column says. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');
