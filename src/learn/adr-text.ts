import { isRecord, type JsonValue } from '../model/json.js';
import { escapeMarkdown } from '../report/markdown-escape.js';
import type { LearnedCheck } from './ledger-checks.js';

/** One architectural change a check recorded, with the names it recorded (first ones). */
export interface ArchitecturalChange {
  readonly kind: 'dependency' | 'module' | 'abstraction' | 'policy';
  readonly names: readonly string[];
  /** Names beyond those recorded. */
  readonly more: number;
}

interface AdrInput {
  readonly number: number;
  readonly title: string;
  readonly check: LearnedCheck;
  readonly changes: readonly ArchitecturalChange[];
  readonly hashes: readonly string[];
}

/** Reasons quoted in the context: the gate's own words, the rest is in the ledger line. */
const MAX_REASONS = 10;

/**
 * The ADR, in the template of `.aureus/decisions/`: title, date, status, context with the
 * numbers, decision, consequences, evidence. Every text the ledger carries (names, reasons, who
 * overrode and why) is untrusted: it goes through escapeMarkdown, so no HTML, link, mention or
 * markup of it acts; hashes and commits are printed only when they are hexadecimal.
 */
export function adrText({ number, title, check, changes, hashes }: AdrInput): string {
  const { record, override } = check;
  const budget = isRecord(record.budget) ? numberOf(record.budget.block) : null;
  const findings = isRecord(record.findings) ? record.findings : {};
  const reasons = strings(record.reasons).slice(0, MAX_REASONS);
  const out = [
    `# ${String(number).padStart(4, '0')}. ${escapeMarkdown(title)}`,
    '',
    `Date: ${escapeMarkdown(check.evidence.at.slice(0, 10))}`,
    '',
    'Status: Proposed',
    '',
    '## Context',
    '',
    `${commitText(check.head)} made an architectural change:`,
    '',
    ...changes.map((change) => `- ${changeText(change)}`),
    '',
    `It cost ${check.total} points${budget === null ? '' : ` against a change budget of ${budget}`} (${costText(check.cost)}); the check found ${numberOf(findings.new) ?? 0} new, ${numberOf(findings.worsened) ?? 0} worsened and ${numberOf(findings.baseline) ?? 0} baseline findings, and its verdict was ${escapeMarkdown(check.verdict)}.`,
    ...(override === null
      ? []
      : [
          '',
          `It was let through by an override from ${escapeMarkdown(override.by)}: “${escapeMarkdown(override.reason)}”.`,
        ]),
    ...(reasons.length === 0
      ? []
      : ['', 'The gate said:', '', ...reasons.map((reason) => `- ${escapeMarkdown(reason)}`)]),
    '',
    '## Decision',
    '',
    ...changes.map((change) => `- ${decisionText(change)}`),
    '',
    '## Consequences',
    '',
    `- ${budgetUse(check.total, budget)}`,
    ...coreUse(record.core),
    ...changes.map((change) => `- ${harderText(change)}`),
    '',
    '## Evidence',
    '',
    `- Ledger entry: ${hexOrUnknown(hashes[0] ?? null)} (${escapeMarkdown(check.evidence.ledger)}, line ${check.evidence.line}, ${escapeMarkdown(check.evidence.at)})`,
    ...hashes.slice(1).map((hash) => `- Same change, checked again: ${hexOrUnknown(hash)}`),
    `- Commit: ${hexOrUnknown(check.head)}`,
    `- Check: ${escapeMarkdown(check.verdict)}, ${check.total} points, base ${hexOrUnknown(check.base)}`,
    '',
  ];
  return out.join('\n');
}

function names(change: ArchitecturalChange): string {
  if (change.names.length === 0) return '';
  const list = change.names.map((name) => escapeMarkdown(name)).join(', ');
  return ` ${list}${change.more > 0 ? ` and ${change.more} more` : ''}`;
}

function changeText(change: ArchitecturalChange): string {
  if (change.kind === 'dependency')
    return change.names.length === 0
      ? 'new dependencies (their names were not recorded by the AUREUS that checked it)'
      : `new dependency${names(change)}`;
  if (change.kind === 'module')
    return change.names.length === 0
      ? 'new core modules (their names were not recorded by the AUREUS that checked it)'
      : `new core module${names(change)}`;
  if (change.kind === 'abstraction')
    return `an abstraction the critic blocked (${names(change).trim()}), let through by an override`;
  return `a policy change${change.names.length === 0 ? '' : `:${names(change)}`}`;
}

function decisionText(change: ArchitecturalChange): string {
  if (change.kind === 'dependency') return `Depend on${names(change) || ' the new dependencies'}.`;
  if (change.kind === 'module') return `Keep${names(change) || ' the new modules'} in the core.`;
  if (change.kind === 'abstraction')
    return `Keep the abstraction despite ${names(change).trim()}, until a second implementation or a simplification.`;
  return 'Judge later changes by the changed policy.';
}

function harderText(change: ArchitecturalChange): string {
  if (change.kind === 'dependency')
    return 'Its updates, audits and transitive packages are the repository’s to follow; removing it later means rewriting its callers.';
  if (change.kind === 'module')
    return 'The core has one more module against `budgets.core_modules`: the next new module reaches the budget sooner.';
  if (change.kind === 'abstraction')
    return 'Readers go through one more indirection; the rule keeps reporting it as baseline until it is removed or earns a second implementation.';
  return 'Every later change is judged by these settings; undoing them is another policy change that needs a maintainer.';
}

function budgetUse(total: number, budget: number | null): string {
  if (budget === null || budget <= 0) return `Budget use after: ${total} points.`;
  return `Budget use after: ${total} of ${budget} points of the change budget (${Math.round((total / budget) * 100)} %).`;
}

function coreUse(core: JsonValue | undefined): string[] {
  if (!isRecord(core)) return [];
  const [loc, target, files, filesBudget, modules, modulesBudget] = [
    core.loc,
    core.locTarget,
    core.files,
    core.filesBudget,
    core.modules,
    core.modulesBudget,
  ].map(numberOf);
  return [
    `- Core after: ${loc ?? '?'} lines of code (target ${target ?? '?'}), ${files ?? '?'} of ${filesBudget ?? '?'} files, ${modules ?? '?'} of ${modulesBudget ?? '?'} modules.`,
  ];
}

function costText(cost: Readonly<Record<string, number>>): string {
  const parts = Object.entries(cost).filter(([key, points]) => key !== 'total' && points !== 0);
  return parts.length === 0
    ? 'no category above zero'
    : parts.map(([key, points]) => `${escapeMarkdown(key)} ${points}`).join(', ');
}

function commitText(head: string | null): string {
  return head === null ? 'A change with no recorded commit' : `Commit ${hexOrUnknown(head)}`;
}

/** A hash or commit as a code span when it is one; anything else in a ledger is not shown raw. */
function hexOrUnknown(value: string | null): string {
  return value !== null && /^[0-9a-f]{7,64}$/.test(value) ? `\`${value}\`` : '(not recorded)';
}

function numberOf(value: JsonValue | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value)
    ? value.flatMap((item) => (typeof item === 'string' ? [item] : []))
    : [];
}
