import type { Finding } from '../model/finding.js';
import type { ReportFinding } from '../model/report.js';

/** What the gate needs of a finding known before the change: its identity and its measure. */
export type KnownFinding = Pick<Finding, 'fingerprint' | 'measured'>;

/**
 * Judges the head's findings against the base's, by fingerprint: a finding already present at
 * the base is baseline (reported, never blocking) unless its measure grew, which makes it
 * worsened; anything else is new. Only new or worsened errors block. Sorted as given.
 */
export function classifyFindings(
  base: readonly KnownFinding[],
  head: readonly Finding[],
): ReportFinding[] {
  const atBase = new Map(base.map((finding) => [finding.fingerprint, finding]));
  return head.map((finding) => {
    const before = atBase.get(finding.fingerprint);
    const status =
      before === undefined ? 'new' : isWorse(before, finding) ? 'worsened' : 'baseline';
    return { ...finding, status, blocking: finding.severity === 'error' && status !== 'baseline' };
  });
}

function isWorse(before: KnownFinding, after: Finding): boolean {
  if (before.measured === null || after.measured === null) return false;
  return after.measured > before.measured;
}
