import type { Report } from '../model/report.js';
import { clip, moreLine, oneLine, paint, type Style, shownCount } from './plain-text.js';
import {
  alternativeText,
  groupFindings,
  headline,
  largestCostItems,
  locationText,
  nonZeroCategories,
  policyChangeNotice,
  signedPoints,
  statusCounts,
  statusText,
  VERDICT_STYLE,
} from './report-facts.js';

export interface TextOptions {
  readonly color: boolean;
  /** Terminal columns: longer lines are cut with `…`. Unlimited when absent (a pipe, a file). */
  readonly width?: number;
}

/** How many of each list a terminal shows: a typical blocked change reads in about 20 lines. */
const SHOWN = { reasons: 5, costItems: 3, blocking: 10, others: 5, alternatives: 5, notes: 5 };

/** No single message floods the terminal, whatever a file name or a note holds. */
const MAX_TEXT_CHARS = 300;

interface Line {
  readonly text: string;
  readonly style: Style;
}

/**
 * Untrusted text, one line, clipped. Every line that holds some starts with a fixed glyph, a
 * number or a label, so no file name can begin a line (a GitHub runner reads a line starting
 * with `::` as a workflow command).
 */
function safe(text: string): string {
  return clip(oneLine(text), MAX_TEXT_CHARS);
}

function line(text: string, style: Style = 'plain'): Line {
  return { text, style };
}

function capped<T>(items: readonly T[], cap: number, toLine: (item: T) => Line): Line[] {
  const shown = shownCount(items.length, cap);
  const more = moreLine(items.length, shown);
  return [
    ...items.slice(0, shown).map(toLine),
    ...(more === null ? [] : [line(`  ${more}`, 'dim')]),
  ];
}

function verdictSection(report: Report): Line[] {
  return [
    line(headline(report), VERDICT_STYLE[report.verdict]),
    ...capped(report.reasons, SHOWN.reasons, (reason) => line(`  - ${safe(reason)}`)),
  ];
}

function costSection(report: Report): Line[] {
  const categories = nonZeroCategories(report.cost);
  if (categories.length === 0) return [];
  const breakdown = categories.map((c) => `${c.category} ${signedPoints(c.points)}`).join(', ');
  const items = largestCostItems(report.costItems);
  return [
    line(`Cost by category: ${breakdown}`, 'bold'),
    ...capped(items, SHOWN.costItems, (item) =>
      line(
        `  ${signedPoints(item.points).padStart(6)}  ${item.category}  ${safe(item.path ?? '(repository)')}: ${safe(item.detail)}`,
      ),
    ),
  ];
}

function findingSections(report: Report): Line[][] {
  const { blocking, others, counts } = groupFindings(report.findings);
  const blockingLines = capped(blocking, SHOWN.blocking, (finding) =>
    line(
      `  ✖ ${safe(locationText(finding.location))}  ${finding.ruleId}  ${safe(finding.message)}`,
      'red',
    ),
  );
  const otherLines = capped(others, SHOWN.others, (finding) =>
    line(
      `  ${finding.status === 'baseline' ? '·' : '!'} ${safe(locationText(finding.location))}  ${finding.ruleId}  ${safe(finding.message)} (${statusText(finding)})`,
      finding.status === 'baseline' ? 'dim' : 'yellow',
    ),
  );
  return [
    blocking.length === 0
      ? []
      : [line(`Blocking findings (${blocking.length})`, 'bold'), ...blockingLines],
    others.length === 0
      ? []
      : [line(`Other findings: ${statusCounts(counts)} — not blocking`, 'bold'), ...otherLines],
  ];
}

function alternativesSection(report: Report): Line[] {
  if (report.alternatives.length === 0) return [];
  return [
    line('Cheaper alternatives', 'bold'),
    ...capped(report.alternatives, SHOWN.alternatives, (alternative) =>
      line(`  → ${alternativeText(alternative)}: ${safe(alternative.message)}`),
    ),
  ];
}

function policySection(report: Report): Line[] {
  if (!report.policy.changed) return [];
  const said = policyChangeNotice(report);
  const notice = said.charAt(0).toUpperCase() + said.slice(1);
  return [
    line(`${notice} (judged by ${safe(report.policy.source)})`, 'yellow'),
    ...capped(report.policy.changes, SHOWN.notes, (change) => line(`  - ${safe(change)}`)),
  ];
}

function notesSection(report: Report): Line[] {
  const { complete, notes } = report.change;
  const incomplete = report.verdict === 'incomplete' || !complete;
  if (notes.length === 0 && !incomplete) return [];
  return [
    line(incomplete ? 'Incomplete — never a pass' : 'Notes', incomplete ? 'magenta' : 'bold'),
    ...capped(notes, SHOWN.notes, (note) => line(`  - ${safe(note)}`)),
  ];
}

/**
 * The terminal report: the verdict first, then why, what it costs, and what would be cheaper.
 * Every line ends in a newline, the last one too, ready for stdout.
 */
export function renderText(report: Report, options: TextOptions): string {
  const sections = [
    verdictSection(report),
    costSection(report),
    ...findingSections(report),
    alternativesSection(report),
    policySection(report),
    notesSection(report),
  ].filter((section) => section.length > 0);
  const lines = sections.flatMap((section, index) =>
    index === 0 ? section : [line(''), ...section],
  );
  const { width, color } = options;
  const fitted = lines.map((l) =>
    paint(width === undefined ? l.text : clip(l.text, width), l.style, color),
  );
  return fitted.map((text) => `${text}\n`).join('');
}
