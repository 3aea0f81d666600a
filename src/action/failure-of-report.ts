import type { Report } from '../model/report.js';
import type { FailureCause } from './action-settings.js';

/** Why the step fails by the `fail-on` input, or null when it passes. */
export function failureOfReport(
  report: Report,
  failOn: ReadonlySet<FailureCause>,
): FailureCause | null {
  if (report.verdict === 'incomplete') return failOn.has('incomplete') ? 'incomplete' : null;
  if (report.verdict !== 'block') return null;
  if (failOn.has('budget') && report.budget.remaining < 0) return 'budget';
  if (failOn.has('findings') && report.findings.some((finding) => finding.blocking))
    return 'findings';
  return null;
}
