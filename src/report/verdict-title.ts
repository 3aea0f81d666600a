import type { Report } from '../model/report.js';

/** The one-line title of a check run (GitHub shows it next to the check's name). */
export function verdictTitle(report: Report): string {
  const cost = `${report.cost.total} of ${report.budget.block} points`;
  switch (report.verdict) {
    case 'pass':
      return `Within budget: ${cost}`;
    case 'warn':
      return `Within budget, with warnings: ${cost}`;
    case 'block':
      return report.budget.remaining < 0 ? `Over budget: ${cost}` : `Blocking findings (${cost})`;
    default:
      return 'Incomplete: the change could not be judged in full';
  }
}
