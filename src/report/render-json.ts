import type { Report } from '../model/report.js';

/** The report as the CLI's `--format json` prints it; `schemas/report.schema.json` describes it. */
export function renderJson(report: Report): string {
  return JSON.stringify(report, null, 2);
}
