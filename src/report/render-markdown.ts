import type { Report } from '../model/report.js';
import type { MarkdownLimits } from './markdown-sections.js';
import {
  alternativesSection,
  blockingSection,
  footerSection,
  ledgerSection,
  notesSection,
  otherFindingsSection,
  policySection,
  reasonsSection,
  titleSection,
} from './markdown-sections.js';
import { trendSection } from './markdown-trend.js';

export interface MarkdownOptions {
  /** Id inside the hidden HTML comment the sticky comment is found by. */
  readonly marker?: string;
  /** Largest comment in UTF-8 bytes; GitHub refuses bodies over 65,536 characters. */
  readonly maxBytes?: number;
  /**
   * The costs of the changes judged earlier on the target branch, oldest first, from the ledger
   * AUREUS itself wrote (never from a file the change can edit): with three or more, the comment
   * gets a trend chart, the first thing left out when the comment would be too long.
   */
  readonly history?: readonly number[];
  /**
   * The repository's web address (`https://github.com/OWNER/REPO`, or a GitHub Enterprise
   * Server's): each finding's place links to its lines at the judged head commit.
   */
  readonly repositoryUrl?: string;
}

const DEFAULT_MARKER = 'aureus:ledger';
const DEFAULT_MAX_BYTES = 65_000;

/** Below this even the verdict and the truncation notice may not fit. */
const MIN_MAX_BYTES = 512;

/** An address that cannot end the Markdown link it starts: no space, no parenthesis, no angle. */
const REPOSITORY_URL = /^https?:\/\/[^\s()<>[\]]+[^/\s()<>[\]]$/;

/** Letters, digits and `:._/-`, never `--`: anything else could end the HTML comment early. */
const MARKER_ID = /^(?!.*--)[A-Za-z0-9:._/-]+$/;

/**
 * Ever smaller lists and texts: the first that fits is used, so a typical report shows
 * everything and 10,000 findings still give a comment GitHub accepts.
 */
const LADDER: readonly MarkdownLimits[] = [
  { rows: 50, cellChars: 300 },
  { rows: 20, cellChars: 160 },
  { rows: 5, cellChars: 100 },
];
const SMALLEST: MarkdownLimits = { rows: 1, cellChars: 60 };

/** `<!-- aureus:ledger -->`: what the poster searches existing comments for. */
export function ledgerMarker(marker: string = DEFAULT_MARKER): string {
  if (!MARKER_ID.test(marker))
    throw new RangeError(`Invalid ledger marker id: ${JSON.stringify(marker)}`);
  return `<!-- ${marker} -->`;
}

function document(
  report: Report,
  marker: string,
  limits: MarkdownLimits,
  history: readonly number[],
  blobUrl: string | undefined,
): string[] {
  const sections = [
    titleSection(report),
    policySection(report, limits),
    reasonsSection(report, limits),
    ledgerSection(report, limits),
    trendSection(report, history),
    blockingSection(report, limits, blobUrl),
    otherFindingsSection(report, limits, blobUrl),
    alternativesSection(report, limits),
    notesSection(report, limits),
    footerSection(report, limits),
  ].filter((section) => section.length > 0);
  return [marker, ...sections.flatMap((section) => [...section, ''])];
}

/** The sticky PR comment: the hidden marker, the verdict, the cost ledger, findings, alternatives. */
export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const marker = ledgerMarker(options.marker);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const history = options.history ?? [];
  if (maxBytes < MIN_MAX_BYTES) throw new RangeError(`maxBytes must be at least ${MIN_MAX_BYTES}`);
  const blobUrl = blobUrlOf(report, options.repositoryUrl);
  // The chart is a picture of what the ledger already says: it goes before any finding does.
  const attempts = [
    ...(history.length > 0 ? [{ limits: LADDER[0] ?? SMALLEST, history }] : []),
    ...[...LADDER, SMALLEST].map((limits) => ({ limits, history: [] })),
  ];
  for (const attempt of attempts) {
    const body = document(report, marker, attempt.limits, attempt.history, blobUrl).join('\n');
    if (utf8Bytes(body) <= maxBytes) return body;
  }
  // Only a very small maxBytes gets here: whole lines while they fit, then say so.
  const notice = `… truncated to ${maxBytes} bytes (see the job summary/artifact)`;
  const room = maxBytes - utf8Bytes(notice) - 1;
  return [...linesWithin(document(report, marker, SMALLEST, [], blobUrl), room), '', notice].join(
    '\n',
  );
}

/** Where a file of the judged head is shown, or undefined when the comment cannot link to it. */
function blobUrlOf(report: Report, repositoryUrl: string | undefined): string | undefined {
  const head = report.change.headSha;
  if (repositoryUrl === undefined || head === null) return undefined;
  if (!REPOSITORY_URL.test(repositoryUrl))
    throw new RangeError(`Invalid repository URL: ${JSON.stringify(repositoryUrl)}`);
  return `${repositoryUrl}/blob/${head}/`;
}

/** Byte sizes as GitHub counts them: comment and summary limits are in UTF-8 bytes, not characters. */
const encoder = new TextEncoder();

function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}

/** The leading lines whose UTF-8 size, newline after each included, stays within `maxBytes`. */
function linesWithin(lines: readonly string[], maxBytes: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    used += utf8Bytes(line) + 1;
    if (used > maxBytes) break;
    kept.push(line);
  }
  return kept;
}

export const TOOL_ERROR_TITLE = 'AUREUS could not decide';

/**
 * The sticky comment and check summary for a run that ended in a tool error: said plainly, and
 * never mistakable for a pass. `message` must already be safe to show (no secrets, no stack);
 * it is put in a code block, so Markdown or mentions in it are shown, not rendered.
 */
export function renderToolError(message: string): string {
  return [
    ledgerMarker(),
    `## ${TOOL_ERROR_TITLE}`,
    '',
    'The change was **not** judged, so this is not a pass.',
    '',
    '```text',
    message.replace(/```/g, "'''"),
    '```',
  ].join('\n');
}

/** The one-line title of a check run (GitHub shows it next to the check's name). */
export function verdictTitle(report: Report): string {
  const cost = `${report.cost.total} of ${report.budget.block} points`;
  switch (report.verdict) {
    case 'pass':
      return `Within budget: ${cost}`;
    case 'warn':
      return `Within budget, with warnings: ${cost}`;
    case 'block':
      return report.budget.remaining < 0 ? `Over budget: ${cost}` : `Blocking findings (${cost})`;
    default:
      return 'Incomplete: the change could not be judged in full';
  }
}
