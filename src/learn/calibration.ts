import type { CommitDiff } from '../git/commit-history.js';
import { COST_CATEGORIES, type CostCategory } from '../model/cost.js';
import type { Policy } from '../model/policy.js';
import { boundedLeastSquares, dot } from './bounded-least-squares.js';
import { DAY_MS, type LedgerLine } from './learn-input.js';
import type { LearnedCheck } from './ledger-checks.js';
import type { PolicyEdit } from './policy-edit.js';
import { reworkOf } from './rework.js';

type Category = Exclude<CostCategory, 'tool'>;

/** The cost categories whose weights a fit may scale (tool actions are the builder's own). */
export const CATEGORIES: readonly Category[] = COST_CATEGORIES.filter(
  (category): category is Category => category !== 'tool',
);

/** One checked commit: its estimate by category, and what it cost once history followed it. */
export interface CalibrationSample {
  readonly commit: string;
  readonly time: number;
  readonly estimated: number;
  readonly actual: number;
  readonly rewritten: number;
  readonly fixups: readonly string[];
}

export interface Calibration {
  /** Checked commits whose rework window history covers, and those too recent for it. */
  readonly samples: readonly CalibrationSample[];
  readonly tooRecent: number;
  readonly trained: number;
  readonly heldOut: number;
  /** Fitted factor per category (null: no training change priced anything in it). */
  readonly factors: Readonly<Record<string, number | null>>;
  /** Mean absolute error on the held-out later changes: with the policy's weights, then fitted. */
  readonly errorBefore: number;
  readonly errorAfter: number;
  /** Why the fitted weights are proposed, or why not. */
  readonly verdict: string;
  readonly builder: { readonly runs: number; readonly meanAbsoluteVariance: number } | null;
}

/** The later share of the history that judges the fit and never feeds it. */
const HELD_OUT_SHARE = 0.3;
/** A factor this close to 1 changes nothing worth a maintainer's review. */
const NEGLIGIBLE = 0.05;

/**
 * Cost-model calibration. A checked commit's actual cost is its estimate plus the rework it
 * caused: its lines deleted again by later commits within `learning.rework_days` and the lines
 * that fix-up commits taking them out added, each at `pricing.loc_added`. A factor per category
 * (bounded by 0 and `learning.max_weight_factor`) is fitted on the earlier 70 % of the commits
 * and judged on the later 30 %: the mean absolute error before (the policy's weights) and after.
 * The fitted weights are proposed only when they predict the held-out changes better.
 */
export function calibrate(
  checks: readonly LearnedCheck[],
  commits: readonly CommitDiff[],
  lines: readonly LedgerLine[],
  policy: Policy,
): { calibration: Calibration | null; edits: PolicyEdit[] } {
  const { rework_days: days, max_weight_factor: upper, min_changes } = policy.learning;
  const index = new Map(commits.map((commit, i) => [commit.sha, i]));
  const newest = commits.reduce((most, commit) => Math.max(most, commit.time), 0);
  const byHead = new Map<string, LearnedCheck>();
  for (const check of checks)
    if (check.head !== null && index.has(check.head) && !byHead.has(check.head))
      byHead.set(check.head, check);
  const ordered = [...byHead.values()].sort(
    (a, b) => (index.get(a.head ?? '') ?? 0) - (index.get(b.head ?? '') ?? 0),
  );
  const samples: CalibrationSample[] = [];
  const rows: number[][] = [];
  let tooRecent = 0;
  for (const check of ordered) {
    const at = index.get(check.head ?? '') ?? 0;
    const commit = commits[at];
    if (commit === undefined) continue;
    // History has not had the whole window to follow it yet: its rework is not known.
    if (commit.time + days * DAY_MS > newest) {
      tooRecent += 1;
      continue;
    }
    const row = CATEGORIES.map((category) => check.cost[category] ?? 0);
    const estimated = row.reduce((sum, value) => sum + value, 0);
    const rework = reworkOf(commits, at, days);
    const extra = (rework.rewritten + rework.fixupLines) * policy.pricing.loc_added;
    rows.push(row);
    samples.push({
      commit: commit.sha,
      time: commit.time,
      estimated,
      actual: estimated + extra,
      rewritten: rework.rewritten,
      fixups: rework.fixups,
    });
  }
  const builder = builderVariance(lines);
  const heldOut = Math.ceil(samples.length * HELD_OUT_SHARE);
  const trained = samples.length - heldOut;
  if (samples.length < min_changes || trained < 2) return { calibration: null, edits: [] };
  const targets = samples.map((sample) => sample.actual);
  const fitted = boundedLeastSquares(rows.slice(0, trained), targets.slice(0, trained), upper);
  const evidence = CATEGORIES.map((_, j) => rows.slice(0, trained).some((row) => row[j] !== 0));
  const ones = CATEGORIES.map(() => 1);
  const error = (weights: readonly number[]) =>
    mean(
      rows
        .slice(trained)
        .map((row, i) => Math.abs((targets[trained + i] ?? 0) - dot(row, weights))),
    );
  const errorBefore = round(error(ones));
  const errorAfter = round(error(fitted));
  const factors: Record<string, number | null> = Object.fromEntries(
    CATEGORIES.map((category, j) => [category, evidence[j] ? round(fitted[j] ?? 1) : null]),
  );
  const moved = CATEGORIES.filter((category) => {
    const factor = factors[category] ?? null;
    return factor !== null && Math.abs(factor - 1) >= NEGLIGIBLE;
  });
  const helps = errorAfter < errorBefore;
  const verdict = !helps
    ? `the fitted weights do not predict the ${heldOut} later changes better (mean absolute error ${errorBefore} → ${errorAfter} points): the policy's weights stay.`
    : moved.length === 0
      ? `the fit keeps every factor within ${NEGLIGIBLE * 100} % of 1: the policy's weights stay.`
      : `the fitted weights predict the ${heldOut} later changes better: mean absolute error ${errorBefore} → ${errorAfter} points.`;
  const calibration: Calibration = {
    samples,
    tooRecent,
    trained,
    heldOut,
    factors,
    errorBefore,
    errorAfter,
    verdict,
    builder,
  };
  if (!helps) return { calibration, edits: [] };
  const why = `fitted on ${trained} commits, judged on the ${heldOut} after them: ${verdict}`;
  const edits = moved.flatMap((category) =>
    weightsOf(category, policy).map(
      ({ path, value }): PolicyEdit => ({
        path,
        from: value,
        to: round(value * (factors[category] ?? 1)),
        kind: 'calibration',
        why: `${category} × ${factors[category]}; ${why}`,
        evidence: [],
      }),
    ),
  );
  return { calibration, edits: edits.filter((edit) => edit.from !== edit.to) };
}

/** The pricing settings behind a category's points. */
function weightsOf(category: Category, policy: Policy): { path: string[]; value: number }[] {
  const { pricing } = policy;
  const at = (path: string[], value: number) => ({ path: ['pricing', ...path], value });
  switch (category) {
    case 'loc':
      return [
        at(['loc_added'], pricing.loc_added),
        at(['loc_deleted_credit'], pricing.loc_deleted_credit),
      ];
    case 'dependencies':
      return Object.entries(pricing.dependency).map(([key, value]) =>
        at(['dependency', key], value),
      );
    case 'abstractions':
      return [at(['abstraction'], pricing.abstraction)];
    case 'security':
      return Object.entries(pricing.security).map(([key, value]) => at(['security', key], value));
    case 'files':
      return [at(['file'], pricing.file)];
    case 'modules':
      return [at(['module'], pricing.module)];
  }
}

/** The builder's own estimate against what its branch cost, from its `builder-run` records. */
function builderVariance(lines: readonly LedgerLine[]): Calibration['builder'] {
  const variances = lines.flatMap(({ entry: { record } }) =>
    record.kind === 'builder-run' &&
    typeof record.points === 'number' &&
    typeof record.estimatedPoints === 'number'
      ? [Math.abs(record.points - record.estimatedPoints)]
      : [],
  );
  return variances.length === 0
    ? null
    : { runs: variances.length, meanAbsoluteVariance: round(mean(variances)) };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
