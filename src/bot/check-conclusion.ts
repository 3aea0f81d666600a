import type { CheckConclusion } from '../github/check-run.js';
import type { Report } from '../model/report.js';

/**
 * The check run's conclusion for a verdict. Warnings pass (they are shown, not enforced); a
 * change that could not be judged in full concludes as the policy says (`failure` by default,
 * or `neutral`), never `success` (DESIGN: fail closed).
 */
export function checkConclusion(
  report: Report,
  incompleteConclusion: 'failure' | 'neutral',
): CheckConclusion {
  switch (report.verdict) {
    case 'pass':
    case 'warn':
      return 'success';
    case 'block':
      return 'failure';
    case 'incomplete':
      return incompleteConclusion;
  }
}
