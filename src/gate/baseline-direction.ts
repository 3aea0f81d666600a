import type { RecordedFinding } from '../model/finding.js';

/** Rules whose recorded figure is a count of lines, said with its unit. */
const MEASURED_IN_LINES: ReadonlySet<string> = new Set(['god_class', 'oversized_adapter']);

/**
 * What an edit of .aureus/baseline.json gives away, as `baseline: …` settings listed with the
 * policy's loosenings. A recorded finding lets `check --all` pass it and lets it grow up to its
 * recorded figure plus the rule's growth tolerance, so an added entry, or a recorded figure
 * raised (or set where there was none), buys a pass for every later change. Removing entries and
 * lowering figures only tighten the gate: not listed.
 */
export function baselineLoosens(
  before: readonly RecordedFinding[],
  after: readonly RecordedFinding[],
): string[] {
  const known = new Map(before.map((entry) => [entry.fingerprint, entry]));
  const raised: string[] = [];
  let added = 0;
  for (const entry of after) {
    const previous = known.get(entry.fingerprint);
    if (previous === undefined) added += 1;
    else if (raises(previous.measured, entry.measured))
      raised.push(`baseline: ${entry.ruleId} ${where(entry)} ${figures(previous, entry)}`);
  }
  return [
    ...raised,
    ...(added > 0 ? [`baseline: +${added} finding${added === 1 ? '' : 's'}`] : []),
  ];
}

/** A figure the growth tolerance counts from goes up, or appears where there was none. */
function raises(from: number | null, to: number | null): boolean {
  if (to === null) return false;
  return from === null || to > from;
}

function where(entry: RecordedFinding): string {
  return entry.path === null ? entry.symbol : `${entry.path}#${entry.symbol}`;
}

function figures(before: RecordedFinding, after: RecordedFinding): string {
  const unit = MEASURED_IN_LINES.has(after.ruleId) ? ' lines' : '';
  return `${before.measured ?? 'none'} → ${after.measured}${unit}`;
}
