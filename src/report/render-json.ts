import type { Report } from '../model/report.js';
import { jsonText } from './plain-text.js';

/**
 * The report as the CLI's `--format json` prints it; `schemas/report.schema.json` describes it.
 * Paths are data here, every byte kept (a byte that is not UTF-8 is written `\udcfe`); no
 * control character is written raw.
 */
export function renderJson(report: Report): string {
  return jsonText(report, 2);
}
