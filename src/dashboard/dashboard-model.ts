import type { JournalEntry } from '../memory/journal-format.js';
import { isRecord, type JsonObject } from '../model/json.js';
import type { CoreUse } from '../model/report.js';

/** One ledger as read and verified: a repository's history. */
export interface LedgerSource {
  /** How the ledger was named: its file, or the shared ledger's branch. */
  readonly name: string;
  readonly entries: readonly JournalEntry[];
  /** Lines skipped as torn, edited, deleted or reordered, or an anchor the file falls short of. */
  readonly damaged: number;
  readonly verified: boolean;
  /** The findings fixed in it, by rule, as the patterns registry counts them. */
  readonly fixes: readonly RuleFixes[];
}

export interface CheckPoint {
  readonly at: string;
  readonly head: string | null;
  readonly source: string | null;
  readonly verdict: string | null;
  readonly cost: number;
  /** The change budget's block line when the check ran; null for records without one. */
  readonly budget: number | null;
  /** Who let the change through and why (an override, or a policy loosening's approval). */
  readonly override: { readonly by: string; readonly reason: string } | null;
}

export type CorePoint = CoreUse & { readonly at: string };

/**
 * A rule's findings: `new` and `worsened` summed over the checks, `baseline` as the latest check
 * that recorded the rule counted them. Fixed findings are counted apart (RuleFixes).
 */
export interface RuleFindings {
  readonly rule: string;
  readonly new: number;
  readonly worsened: number;
  readonly baseline: number;
}

/**
 * A rule's findings fixed, in all and week by week (weeks start on Monday, UTC), as
 * `aureus memory patterns` counts them: a finding a check had and the next check of the same
 * line of history no longer has.
 */
export interface RuleFixes {
  readonly rule: string;
  readonly fixes: number;
  readonly weeks: readonly { readonly week: string; readonly fixes: number }[];
}

export interface FileCost {
  readonly path: string;
  /** Points summed over every check that priced the file. */
  readonly points: number;
  readonly checks: number;
}

/** How often a person let a rule (or the budget, or a policy loosening) through. */
export interface OverrideCount {
  readonly rule: string;
  readonly by: string;
  readonly count: number;
}

/** A builder run's estimate against what its branch cost: the cost model's error. */
export interface PredictionPoint {
  readonly at: string;
  readonly run: string;
  readonly estimated: number;
  readonly actual: number;
  readonly error: number;
}

export interface SpendPoint {
  readonly at: string;
  readonly kind: string;
  readonly usd: number;
  readonly tokens: number;
}

export interface RepositoryDashboard {
  readonly name: string;
  readonly verified: boolean;
  readonly damaged: number;
  readonly checks: readonly CheckPoint[];
  readonly core: readonly CorePoint[];
  readonly findingsByRule: readonly RuleFindings[];
  readonly fixesByRule: readonly RuleFixes[];
  readonly costliestFiles: readonly FileCost[];
  readonly overrides: readonly OverrideCount[];
  readonly prediction: readonly PredictionPoint[];
  readonly spend: readonly SpendPoint[];
}

/** What `aureus report` shows, and prints with `--format json`. */
export interface DashboardModel {
  readonly schemaVersion: 1;
  /** The --since given, as written; null when every entry counts. */
  readonly since: string | null;
  readonly repositories: readonly RepositoryDashboard[];
}

/** Enough files to act on; the rest is in each check's report. */
const MAX_FILES = 15;
/** What an override of a check without a rule finding let through: the change budget. */
const BUDGET = 'change budget';
const POLICY = 'policy loosening';

/** The dashboard of several ledgers, in the order given. Pure: the entries are already read. */
export function dashboardModel(
  sources: readonly LedgerSource[],
  since: string | null,
): DashboardModel {
  return { schemaVersion: 1, since, repositories: sources.map(repositoryDashboard) };
}

function repositoryDashboard(source: LedgerSource): RepositoryDashboard {
  const checks = source.entries.filter(({ record }) => record.kind === 'check');
  return {
    name: source.name,
    verified: source.verified,
    damaged: source.damaged,
    checks: checks.map(checkPoint),
    core: checks.flatMap(corePoint),
    findingsByRule: findingsByRule(checks),
    fixesByRule: source.fixes,
    costliestFiles: costliestFiles(checks),
    overrides: overrides(checks),
    prediction: source.entries.flatMap(predictionPoint),
    spend: source.entries.flatMap(spendPoint),
  };
}

function checkPoint({ at, record }: JournalEntry): CheckPoint {
  const cost = isRecord(record.cost) ? numberOr(record.cost.total, 0) : 0;
  const budget = isRecord(record.budget) ? numberOr(record.budget.block, null) : null;
  return {
    at,
    head: stringOr(record.head, null),
    source: stringOr(record.source, null),
    verdict: stringOr(record.verdict, null),
    cost,
    budget,
    override: letThrough(record.override) ?? letThrough(record.policyApproval),
  };
}

function letThrough(value: unknown): CheckPoint['override'] {
  if (!isRecord(value) || typeof value.by !== 'string') return null;
  return { by: value.by, reason: stringOr(value.reason, '') };
}

function corePoint({ at, record }: JournalEntry): CorePoint[] {
  const core = record.core;
  if (!isRecord(core)) return [];
  const { loc, locTarget, locHard, files, filesBudget, modules, modulesBudget } = core;
  const figures = [loc, locTarget, locHard, files, filesBudget, modules, modulesBudget];
  if (!figures.every((value) => typeof value === 'number')) return [];
  const n = (value: unknown) => numberOr(value, 0);
  return [
    {
      at,
      loc: n(loc),
      locTarget: n(locTarget),
      locHard: n(locHard),
      files: n(files),
      filesBudget: n(filesBudget),
      modules: n(modules),
      modulesBudget: n(modulesBudget),
    },
  ];
}

function findingsByRule(checks: readonly JournalEntry[]): RuleFindings[] {
  const rules = new Map<string, { new: number; worsened: number; baseline: number }>();
  for (const { record } of checks)
    for (const row of rowsOf(record.rules)) {
      const rule = stringOr(row.rule, null);
      if (rule === null) continue;
      const sum = rules.get(rule) ?? { new: 0, worsened: 0, baseline: 0 };
      rules.set(rule, {
        new: sum.new + numberOr(row.new, 0),
        worsened: sum.worsened + numberOr(row.worsened, 0),
        // The latest count: baseline findings stay from check to check, a sum would repeat them.
        baseline: numberOr(row.baseline, 0),
      });
    }
  return [...rules]
    .map(([rule, counts]) => ({ rule, ...counts }))
    .sort((a, b) => total(b) - total(a) || compare(a.rule, b.rule));
}

function costliestFiles(checks: readonly JournalEntry[]): FileCost[] {
  const files = new Map<string, { points: number; checks: number }>();
  for (const { record } of checks)
    for (const row of rowsOf(record.fileCosts)) {
      const path = stringOr(row.path, null);
      if (path === null) continue;
      const sum = files.get(path) ?? { points: 0, checks: 0 };
      files.set(path, { points: sum.points + numberOr(row.points, 0), checks: sum.checks + 1 });
    }
  return [...files]
    .map(([path, sum]) => ({ path, points: round(sum.points), checks: sum.checks }))
    .sort((a, b) => b.points - a.points || compare(a.path, b.path))
    .slice(0, MAX_FILES);
}

/**
 * Each override counted once per rule it let through: the rules with new or worsened findings
 * in that check, or the change budget when none had any. A policy approval counts as one
 * policy loosening by its approver.
 */
function overrides(checks: readonly JournalEntry[]): OverrideCount[] {
  const counts = new Map<string, OverrideCount>();
  const add = (rule: string, by: string) => {
    const key = JSON.stringify([rule, by]);
    counts.set(key, { rule, by, count: (counts.get(key)?.count ?? 0) + 1 });
  };
  for (const { record } of checks) {
    const override = record.override;
    if (isRecord(override) && typeof override.by === 'string') {
      const rules = rowsOf(record.rules).flatMap((row) =>
        numberOr(row.new, 0) + numberOr(row.worsened, 0) > 0 && typeof row.rule === 'string'
          ? [row.rule]
          : [],
      );
      for (const rule of rules.length === 0 ? [BUDGET] : rules) add(rule, override.by);
    }
    const approval = record.policyApproval;
    if (isRecord(approval) && typeof approval.by === 'string') add(POLICY, approval.by);
  }
  return [...counts.values()].sort(
    (a, b) => b.count - a.count || compare(a.rule, b.rule) || compare(a.by, b.by),
  );
}

function predictionPoint({ at, record }: JournalEntry): PredictionPoint[] {
  const { estimatedPoints, points } = record;
  if (record.kind !== 'builder-run' || typeof estimatedPoints !== 'number') return [];
  if (typeof points !== 'number') return [];
  const run = stringOr(record.id, '');
  return [
    { at, run, estimated: estimatedPoints, actual: points, error: round(points - estimatedPoints) },
  ];
}

function spendPoint({ at, record }: JournalEntry): SpendPoint[] {
  const spend = record.modelSpend;
  if (!isRecord(spend) || typeof spend.usd !== 'number') return [];
  const tokens = numberOr(spend.inputTokens, 0) + numberOr(spend.outputTokens, 0);
  return [{ at, kind: stringOr(record.kind, 'unknown'), usd: spend.usd, tokens }];
}

function rowsOf(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter((row): row is JsonObject => isRecord(row)) : [];
}

function numberOr<T>(value: unknown, fallback: T): number | T {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function stringOr<T>(value: unknown, fallback: T): string | T {
  return typeof value === 'string' ? value : fallback;
}

const total = (row: RuleFindings) => row.new + row.worsened + row.baseline;
const round = (value: number) => Math.round(value * 100) / 100;
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
