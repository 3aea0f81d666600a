import type { Report, ReportFinding } from '../model/report.js';
import { formatPolicyProblem, type PolicyProblem } from '../policy/policy-problem.js';
import { escapeControls, oneLine } from './plain-text.js';
import { POLICY_FILE, placeOf, policyChangeNotice, statusText } from './report-facts.js';

/**
 * One annotation on a file's lines: data for the Action's `core.error`/`core.warning` or for a
 * check run's `annotations` (GitHub takes 50 per request; batching is the poster's job). Its
 * texts are shown as they are, in the run log and on the pull request, so they come escaped
 * (oneLine): a name with ESC or a byte that is not UTF-8 shows `\u001B` or `\xFE`.
 */
export interface Annotation {
  readonly level: 'error' | 'warning' | 'notice';
  readonly file: string;
  readonly startLine: number;
  readonly endLine: number;
  /** The column of a finding at one place of a line (FindingLocation `startColumn`). */
  readonly startColumn?: number;
  readonly title: string;
  readonly message: string;
}

const LEVEL_ORDER: Readonly<Record<Annotation['level'], number>> = {
  error: 0,
  warning: 1,
  notice: 2,
};

function annotationOf(finding: ReportFinding): Annotation {
  const place = placeOf(finding);
  const startLine = Math.max(1, place.startLine);
  const endLine = Math.max(startLine, place.endLine);
  // GitHub takes a column only on an annotation of one line.
  const column =
    place.startColumn === undefined || endLine !== startLine
      ? {}
      : { startColumn: place.startColumn };
  return {
    level: finding.blocking ? 'error' : 'warning',
    file: oneLine(place.path),
    startLine,
    endLine,
    ...column,
    title: `AUREUS ${finding.ruleId} (${statusText(finding)})`,
    message: oneLine(finding.message),
  };
}

function policyChangeAnnotation(report: Report): Annotation {
  const changes = report.policy.changes.length > 0 ? `: ${report.policy.changes.join('; ')}` : '';
  return {
    level: 'notice',
    file: POLICY_FILE,
    startLine: 1,
    endLine: 1,
    title: `AUREUS ${policyChangeNotice(report)}`,
    message: oneLine(
      `This change edits the policy; it was judged by the policy at the base, not by its own edits${changes}.`,
    ),
  };
}

/**
 * Annotations for what this change brings: new and worsened findings (blocking ones as errors)
 * and a notice on a policy change. Baseline findings are left out: on a legacy repository
 * they would bury the diff under old news (they stay in SARIF and the JSON report).
 * Repository-wide findings go on line 1 of the policy, as in SARIF.
 */
export function renderAnnotations(report: Report): Annotation[] {
  const findings = report.findings
    .filter((finding) => finding.status !== 'baseline')
    .map(annotationOf);
  const notices = report.policy.changed ? [policyChangeAnnotation(report)] : [];
  // Stable sort: errors first, each level in the report's order.
  return [...findings, ...notices].sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level]);
}

/**
 * GitHub's escaping for workflow commands (as @actions/core's `command.ts` does). The runner
 * reads the properties up to the first `::` and the message after it, one line each: with `%`,
 * CR and LF encoded in the message, and `:` and `,` too in properties, no file name or message
 * can end the command early or start another one (THREATS row 15, CVE-2020-15228).
 */
function escapeCommandData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * `::error file=src/a.ts,line=3,endLine=9,title=…::message` (with `col=` for an annotation at
 * one place of a line): one line for the runner's log, which shows it as it is: ESC, C1
 * controls, bidirectional controls and bytes that are not UTF-8 come escaped (escapeControls),
 * whoever built the annotation.
 */
export function workflowCommand(annotation: Annotation): string {
  const column: ReadonlyArray<readonly [string, string]> =
    annotation.startColumn === undefined ? [] : [['col', String(annotation.startColumn)]];
  const properties: ReadonlyArray<readonly [string, string]> = [
    ['file', escapeControls(annotation.file)],
    ['line', String(annotation.startLine)],
    ['endLine', String(annotation.endLine)],
    ...column,
    ['title', escapeControls(annotation.title)],
  ];
  // A property's value also escapes the `:` and `,` that end it.
  const encoded = properties.map(
    ([key, value]) =>
      `${key}=${escapeCommandData(value).replace(/:/g, '%3A').replace(/,/g, '%2C')}`,
  );
  const message = escapeCommandData(escapeControls(annotation.message));
  return `::${annotation.level} ${encoded.join(',')}::${message}`;
}

/** A broken policy's problems as annotations on the policy file itself, line by line. */
export function policyAnnotations(problems: readonly PolicyProblem[]): Annotation[] {
  return problems.map((problem) => ({
    level: 'error',
    // `.aureus/policy.yaml@1a2b3c`: the annotation goes on the file, not on a commit-qualified name.
    file: problem.file.replace(/@[0-9a-f]+$/, ''),
    startLine: problem.line,
    endLine: problem.line,
    title: 'AUREUS policy error',
    message: formatPolicyProblem(problem),
  }));
}
