import type { FindingLocation } from '../model/finding.js';
import type { Alternative, Report, ReportFinding } from '../model/report.js';
import { escapeMarkdown } from './markdown-escape.js';
import { clip, moreLine, oneLine } from './plain-text.js';
import { pathToUri } from './render-sarif.js';
import {
  alternativePoints,
  budgetLeft,
  formatPoints,
  groupFindings,
  headline,
  largestCostItems,
  locationText,
  nonZeroCategories,
  policyChangeNotice,
  signedPoints,
  statusCounts,
  statusText,
  VERDICT_EMOJI,
} from './report-facts.js';

/** The building blocks of the PR comment: escaped text, capped lists, tables. */

/** How much of every list and every text the comment shows; render-markdown shrinks them to fit. */
export interface MarkdownLimits {
  readonly rows: number;
  readonly cellChars: number;
}

export type Lines = readonly string[];

const SEE_ALSO = ' (see the job summary/artifact)';

/** Untrusted text: one line, clipped before escaping so an escape is never cut in half. */
export function text(value: string, limits: MarkdownLimits): string {
  return escapeMarkdown(clip(oneLine(value), limits.cellChars));
}

/** A capped list, then "… and N more" after a blank line (a line right after a table joins it). */
export function capped<T>(
  items: readonly T[],
  limits: MarkdownLimits,
  toLines: (shown: readonly T[]) => Lines,
): Lines {
  const shown = items.slice(0, limits.rows);
  const more = moreLine(items.length, shown.length, SEE_ALSO);
  if (shown.length === 0) return more === null ? [] : [more];
  return [...toLines(shown), ...(more === null ? [] : ['', more])];
}

export function table(header: string, align: string, rows: Lines): Lines {
  return [header, align, ...rows];
}

export function bullets(items: readonly string[], limits: MarkdownLimits): Lines {
  return capped(items, limits, (shown) => shown.map((item) => `- ${text(item, limits)}`));
}

export function titleSection(report: Report): Lines {
  return [`### ${VERDICT_EMOJI[report.verdict]} ${headline(report)}`];
}

export function policySection(report: Report, limits: MarkdownLimits): Lines {
  if (!report.policy.changed) return [];
  return [
    `> **⚠️ ${policyChangeNotice(report)}.** This change edits the policy; it is judged by the policy at the base (${text(report.policy.source, limits)}), never by its own edits.`,
    ...bullets(report.policy.changes, limits).map((entry) => (entry === '' ? '>' : `> ${entry}`)),
  ];
}

export function reasonsSection(report: Report, limits: MarkdownLimits): Lines {
  return bullets(report.reasons, limits);
}

/** The cost ledger: a change's cost is itself a delta per category (deletions earn credit). */
export function ledgerSection(report: Report, limits: MarkdownLimits): Lines {
  const { budget, cost } = report;
  const rows = nonZeroCategories(cost).map((c) => `| ${c.category} | ${signedPoints(c.points)} |`);
  const items = capped(largestCostItems(report.costItems), limits, (shown) =>
    table(
      '| Δ points | Category | Where | What |',
      '|--:|:--|:--|:--|',
      shown.map(
        (item) =>
          `| ${signedPoints(item.points)} | ${item.category} | ${text(item.path ?? '(repository)', limits)} | ${text(item.detail, limits)} |`,
      ),
    ),
  );
  return [
    '#### Cost ledger',
    '',
    ...table('| Category | Δ points |', '|:--|--:|', [
      ...rows,
      `| **total** | **${signedPoints(cost.total)}** |`,
    ]),
    '',
    `**Budget:** ${formatPoints(cost.total)} of ${formatPoints(budget.block)} points (${budgetLeft(report)}); warning at ${formatPoints(budget.warn)}. Policy: ${text(report.policy.source, limits)}.`,
    ...(items.length > 0 ? ['', '**Largest cost items**', '', ...items] : []),
  ];
}

function findingRow(
  finding: ReportFinding,
  limits: MarkdownLimits,
  withStatus: boolean,
  blobUrl: string | undefined,
): string {
  const status = withStatus ? ` ${statusText(finding)} |` : '';
  return `| ${placeCell(finding.location, limits, blobUrl)} | \`${finding.ruleId}\` |${status} ${text(finding.message, limits)} |`;
}

/**
 * `path:line`, linked to the line at the judged commit when the comment knows where the
 * repository is. The path is the pull request's: percent-encoded segment by segment, with the
 * characters that would end a Markdown link target (`(`, `)`) or read as markup encoded too.
 */
function placeCell(
  location: FindingLocation | null,
  limits: MarkdownLimits,
  blobUrl: string | undefined,
): string {
  const shown = text(locationText(location), limits);
  if (location === null || blobUrl === undefined) return shown;
  const path = pathToUri(location.path).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  const lines =
    location.endLine > location.startLine
      ? `L${location.startLine}-L${location.endLine}`
      : `L${location.startLine}`;
  return `[${shown}](${blobUrl}${path}#${lines})`;
}

export function blockingSection(report: Report, limits: MarkdownLimits, blobUrl?: string): Lines {
  const { blocking } = groupFindings(report.findings);
  if (blocking.length === 0) return [];
  const rows = capped(blocking, limits, (shown) =>
    table(
      '| Location | Rule | Finding |',
      '|:--|:--|:--|',
      shown.map((f) => findingRow(f, limits, false, blobUrl)),
    ),
  );
  return [`#### Blocking findings (${blocking.length})`, '', ...rows];
}

export function otherFindingsSection(
  report: Report,
  limits: MarkdownLimits,
  blobUrl?: string,
): Lines {
  const { others, counts } = groupFindings(report.findings);
  if (others.length === 0) return [];
  const rows = capped(others, limits, (shown) =>
    table(
      '| Location | Rule | Status | Finding |',
      '|:--|:--|:--|:--|',
      shown.map((f) => findingRow(f, limits, true, blobUrl)),
    ),
  );
  return [`#### Other findings: ${statusCounts(counts)} — not blocking`, '', ...rows];
}

function alternativeLabel(alternative: Alternative): string {
  const points = alternativePoints(alternative);
  return points === null ? `**${alternative.kind}**` : `**${alternative.kind}** (${points} points)`;
}

export function alternativesSection(report: Report, limits: MarkdownLimits): Lines {
  if (report.alternatives.length === 0) return [];
  const list = capped(report.alternatives, limits, (shown) =>
    shown.map((a) => `- ${alternativeLabel(a)}: ${text(a.message, limits)}`),
  );
  return ['#### Cheaper alternatives', '', ...list];
}

export function notesSection(report: Report, limits: MarkdownLimits): Lines {
  const { complete, notes } = report.change;
  const incomplete = report.verdict === 'incomplete' || !complete;
  if (notes.length === 0 && !incomplete) return [];
  return [
    incomplete ? '#### ❔ Incomplete — never a pass' : '#### Notes',
    '',
    ...bullets(notes, limits),
  ];
}

export function footerSection(report: Report, limits: MarkdownLimits): Lines {
  const { baseSha, headSha } = report.change;
  const shas = [
    baseSha === null ? null : `base ${baseSha}`,
    headSha === null ? null : `head ${headSha}`,
  ];
  const parts = [`aureus ${report.tool.version}`, ...shas].filter((part) => part !== null);
  return [`<sub>${text(parts.join(' · '), limits)}</sub>`];
}
