import type { Report } from '../model/report.js';
import type { FailureCause } from './action-settings.js';

/**
 * Why the step fails by the `fail-on` input, or null when it passes. `policy` is no input's
 * choice: a block caused by the policy itself (a loosening awaiting a maintainer's approval, a
 * new policy file that does not validate) fails whatever causes `fail-on` names, and passes only
 * under `fail-on: none`. The causes a workflow picks are the costs it enforces; the policy is
 * what defines them, so `fail-on: budget` must not let a pull request raise the budget green.
 */
export function failureOfReport(
  report: Report,
  failOn: ReadonlySet<FailureCause>,
): FailureCause | 'policy' | null {
  if (report.verdict === 'incomplete') return failOn.has('incomplete') ? 'incomplete' : null;
  if (report.verdict !== 'block') return null;
  const overBudget = report.budget.remaining < 0;
  const blockingFindings = report.findings.some((finding) => finding.blocking);
  if (failOn.has('budget') && overBudget) return 'budget';
  if (failOn.has('findings') && blockingFindings) return 'findings';
  // A block of no cause the report names is failed the same way: never a silent pass.
  const policyBlock = report.policy.blocks || (!overBudget && !blockingFindings);
  if (policyBlock && failOn.size > 0) return 'policy';
  return null;
}
