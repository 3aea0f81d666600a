import type { Finding } from '../model/finding.js';
import type { ForbiddenPatternId, Policy } from '../model/policy.js';
import type { FindingGrowth, ReportFinding } from '../model/report.js';

/** What the gate needs of a finding known before the change: its identity and its measure. */
export type KnownFinding = Pick<Finding, 'fingerprint' | 'measured'>;

/** What a worsened finding is measured against besides the base. */
export interface GrowthAnchors {
  readonly policy: Policy;
  /** The findings .aureus/baseline.json records, under the head's paths (none without one). */
  readonly recorded: readonly KnownFinding[];
}

/**
 * Judges the head's findings against the base's, by fingerprint: a finding already present at
 * the base is baseline (reported, never blocking) unless its measure got worse, which makes it
 * worsened; anything else is new. New errors block; worsened ones too, unless the rule's growth
 * tolerance covers them (growthOf). Sorted as given.
 */
export function classifyFindings(
  base: readonly KnownFinding[],
  head: readonly Finding[],
  anchors: GrowthAnchors,
): ReportFinding[] {
  const atBase = new Map(base.map((finding) => [finding.fingerprint, finding]));
  const recorded = new Map(anchors.recorded.map((finding) => [finding.fingerprint, finding]));
  return head.map((finding) => {
    const before = atBase.get(finding.fingerprint);
    if (before === undefined)
      return { ...finding, status: 'new', blocking: finding.severity === 'error', growth: null };
    if (before.measured === null || finding.measured === null || !isWorse(before, finding))
      return { ...finding, status: 'baseline', blocking: false, growth: null };
    const growth = growthOf(finding, before.measured, recorded.get(finding.fingerprint), anchors);
    return {
      ...finding,
      status: 'worsened',
      blocking: finding.severity === 'error' && !growth.tolerated,
      growth,
    };
  });
}

/**
 * Worse is further past the limit: a larger figure for a maximum (lines, depth, files), a
 * smaller one for a minimum (implementations, subscribers), which a finding's figure sits
 * below. An event bus that gains a subscriber got better, not worse.
 */
function isWorse(before: KnownFinding, after: Finding): boolean {
  if (before.measured === null || after.measured === null) return false;
  const belowMinimum = after.limit !== null && after.measured < after.limit;
  return belowMinimum ? after.measured < before.measured : after.measured > before.measured;
}

/**
 * The growth of a worsened finding and whether it is tolerated: only when the rule has a
 * tolerance and the baseline records the finding, and only up to the recorded figure plus the
 * tolerance. Counting from the recorded figure is what stops slow creep: a class that gains
 * three lines in every change uses up the same tolerance, where one renewed from each change's
 * base would let it grow without end. A finding the baseline does not record has no such fixed
 * point, so its growth blocks as it always did.
 */
function growthOf(
  finding: Finding,
  from: number,
  known: KnownFinding | undefined,
  anchors: GrowthAnchors,
): FindingGrowth {
  const tolerance = growthTolerance(anchors.policy, finding.ruleId);
  const recorded = known?.measured ?? null;
  const tolerated =
    tolerance > 0 &&
    recorded !== null &&
    finding.measured !== null &&
    finding.measured <= recorded + tolerance;
  return { from, recorded, tolerance, tolerated };
}

/**
 * The policy's growth tolerance for a rule. Only rules that measure the lines of one thing have
 * one: ordinary work (a bug fix) changes those by a few lines. Depth, cycles and the core's
 * budgets do not grow by a bug fix, and a budget already is the tolerance it needs.
 */
function growthTolerance(policy: Policy, ruleId: ForbiddenPatternId): number {
  if (ruleId === 'god_class') return policy.forbidden_patterns.god_class.growth_tolerance;
  if (ruleId === 'oversized_adapter')
    return policy.forbidden_patterns.oversized_adapter.growth_tolerance;
  return 0;
}

/**
 * Whether any rule of the policy tolerates growth: when none does, the baseline's figures
 * change no verdict, and a check need not read them.
 */
export function toleratesGrowth(policy: Policy): boolean {
  return (
    growthTolerance(policy, 'god_class') > 0 || growthTolerance(policy, 'oversized_adapter') > 0
  );
}

/**
 * How a worsened finding grew, as a clause to append to its message: from what, and where it
 * stands against the baseline's figure and the tolerance. Empty for other findings.
 */
export function growthSentence(finding: ReportFinding): string {
  const { growth, measured } = finding;
  if (growth === null || measured === null) return '';
  const { from, recorded, tolerance } = growth;
  const key = `forbidden_patterns.${finding.ruleId}.growth_tolerance`;
  if (recorded === null) {
    return tolerance > 0
      ? `; it grew from ${from}, and the baseline does not record it, so ${key} (${tolerance}) does not apply`
      : `; it grew from ${from}`;
  }
  const over = measured - recorded;
  const position = over > 0 ? `${over} over` : over === 0 ? 'at' : `${-over} under`;
  return `; it grew from ${from}, ${position} the ${recorded} the baseline records (${key}: ${tolerance})`;
}
