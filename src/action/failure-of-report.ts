import type { Report } from '../model/report.js';
import type { FailureCause } from './action-settings.js';

/** Why the step fails by the `fail-on` input, or null when it passes. */
export function failureOfReport(
  report: Report,
  failOn: ReadonlySet<FailureCause>,
): FailureCause | null {
  if (report.verdict === 'incomplete') return failOn.has('incomplete') ? 'incomplete' : null;
  if (report.verdict !== 'block') return null;
  const overBudget = report.budget.remaining < 0;
  const blockingFindings = report.findings.some((finding) => finding.blocking);
  if (failOn.has('budget') && overBudget) return 'budget';
  if (failOn.has('findings') && blockingFindings) return 'findings';
  // A block with neither cause (a new policy file that does not validate) is a problem in the
  // change's files like a finding: it fails with them rather than passing unnoticed.
  if (failOn.has('findings') && !overBudget && !blockingFindings) return 'findings';
  return null;
}
