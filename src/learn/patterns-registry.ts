import { compareStrings } from '../analysis/graph/module-graph.js';
import { DAY_MS, type LedgerLine } from './learn-input.js';
import { checksInWindow, type LearnedCheck } from './ledger-checks.js';

/** An override of a check a rule blocked: who let it through, why, when, where it is recorded. */
export interface PatternOverride {
  readonly at: string;
  readonly by: string;
  readonly reason: string;
  readonly commit: string | null;
  readonly ledger: string;
  readonly line: number;
}

/** A finding of the rule gone at a check that followed one that had it (see fixesOf). */
export interface PatternFix {
  readonly at: string;
  readonly fingerprint: string;
  /** The commit of the check that still had it, and of the one that no longer does. */
  readonly from: string;
  readonly commit: string;
}

/** One rule in one week (weeks start on Monday, UTC; named by that Monday's date). */
export interface PatternWeek {
  readonly week: string;
  /** Checks with new or worsened findings of the rule. */
  readonly fired: number;
  readonly overrides: readonly PatternOverride[];
  readonly fixes: readonly PatternFix[];
}

export interface RulePattern {
  readonly rule: string;
  readonly fired: number;
  readonly overrides: number;
  readonly fixes: number;
  readonly weeks: readonly PatternWeek[];
}

/** `.aureus/patterns.json`: each rule's violations, overrides and fixes over time. */
export interface PatternsRegistry {
  /** memory.patterns_retention_days: data points older are left out; 0 keeps them all. */
  readonly retentionDays: number;
  /** The oldest time kept, or null when all are kept. */
  readonly since: string | null;
  /** Checks read (each change once, however many ledgers recorded it). */
  readonly checks: number;
  /** Checks whose record has no complete list of findings: fixes around them are not counted. */
  readonly withoutFindings: number;
  readonly rules: readonly RulePattern[];
}

interface Point {
  readonly rule: string;
  readonly at: number;
  readonly fired?: true;
  readonly override?: PatternOverride;
  readonly fix?: PatternFix;
}

/**
 * The registry of every rule from the checks of the ledgers: when it fired, who overrode it,
 * when its findings were fixed. Data points older than `retentionDays` before `now` are left out.
 */
export function patternsRegistry(
  lines: readonly LedgerLine[],
  now: number,
  retentionDays: number,
): PatternsRegistry {
  const checks = checksInWindow(lines, now, Number.POSITIVE_INFINITY);
  const since = retentionDays === 0 ? Number.NEGATIVE_INFINITY : now - retentionDays * DAY_MS;
  const points = [...checks.flatMap(pointsOf), ...fixesOf(checks)].filter(
    (point) => point.at >= since,
  );
  const kept = checks.filter((check) => check.at >= since);
  const rules = [...new Set(points.map((point) => point.rule))].sort(compareStrings);
  return {
    retentionDays,
    since: retentionDays === 0 ? null : new Date(since).toISOString(),
    checks: kept.length,
    withoutFindings: kept.filter((check) => check.found === null).length,
    rules: rules.map((rule) => rulePattern(rule, points)),
  };
}

/** Each rule with fixes: how many, and how many each week that had any. */
export function fixesByRule(
  registry: PatternsRegistry,
): { rule: string; fixes: number; weeks: { week: string; fixes: number }[] }[] {
  return registry.rules.flatMap((pattern) =>
    pattern.fixes === 0
      ? []
      : [
          {
            rule: pattern.rule,
            fixes: pattern.fixes,
            weeks: pattern.weeks.flatMap((week) =>
              week.fixes.length === 0 ? [] : [{ week: week.week, fixes: week.fixes.length }],
            ),
          },
        ],
  );
}

function pointsOf(check: LearnedCheck): Point[] {
  const { at, override, evidence } = check;
  const fired: Point[] = check.newRules.map((rule) => ({ rule, at, fired: true }));
  if (override === null) return fired;
  const overridden = { at: evidence.at, ...override, commit: check.head, ledger: evidence.ledger };
  return [
    ...fired,
    ...check.blockedBy.map((rule) => ({
      rule,
      at,
      override: { ...overridden, line: evidence.line },
    })),
  ];
}

/**
 * A fix: a check B whose base commit is the head commit of an earlier check A (B's change starts
 * where A's ended: the same line of history) and whose findings lack a fingerprint A's had. Only
 * checks whose records list every finding count: a missing or cut list proves nothing.
 */
function fixesOf(checks: readonly LearnedCheck[]): Point[] {
  const byHead = new Map<string, LearnedCheck>();
  for (const check of [...checks].sort((a, b) => a.at - b.at))
    if (check.head !== null) byHead.set(check.head, check);
  return checks.flatMap((later) => {
    const earlier = later.base === null ? undefined : byHead.get(later.base);
    if (earlier === undefined || earlier.found === null || later.found === null) return [];
    if (earlier.at > later.at || later.head === null || earlier.head === null) return [];
    const still = new Set(later.found.map((finding) => finding.fingerprint));
    return earlier.found
      .filter((finding) => !still.has(finding.fingerprint))
      .map((finding) => ({
        rule: finding.rule,
        at: later.at,
        fix: {
          at: later.evidence.at,
          fingerprint: finding.fingerprint,
          from: earlier.head ?? '',
          commit: later.head ?? '',
        },
      }));
  });
}

function rulePattern(rule: string, points: readonly Point[]): RulePattern {
  const mine = points.filter((point) => point.rule === rule).sort((a, b) => a.at - b.at);
  const weeks = new Map<string, Point[]>();
  for (const point of mine) {
    const week = weekOf(point.at);
    weeks.set(week, [...(weeks.get(week) ?? []), point]);
  }
  const count = (of: readonly Point[], key: 'fired' | 'override' | 'fix') =>
    of.filter((point) => point[key] !== undefined).length;
  return {
    rule,
    fired: count(mine, 'fired'),
    overrides: count(mine, 'override'),
    fixes: count(mine, 'fix'),
    weeks: [...weeks].map(([week, of]) => ({
      week,
      fired: count(of, 'fired'),
      overrides: of.flatMap((point) => point.override ?? []),
      fixes: of.flatMap((point) => point.fix ?? []),
    })),
  };
}

/** The Monday (UTC) of the week of `at`, as YYYY-MM-DD. */
function weekOf(at: number): string {
  const day = new Date(at);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(at - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}
