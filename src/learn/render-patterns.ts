import { oneLine } from '../report/plain-text.js';
import type { PatternsRegistry } from './patterns-registry.js';

/**
 * `aureus memory patterns`' text: per rule its totals, then week by week the checks it fired
 * in, each override (who, why, when, which commit) and each fixed finding. Ledger text is data:
 * it is printed on one line with its control characters escaped.
 */
export function renderPatterns(registry: PatternsRegistry): string {
  const kept =
    registry.since === null
      ? 'all kept (memory.patterns_retention_days: 0)'
      : `since ${registry.since} (memory.patterns_retention_days: ${registry.retentionDays})`;
  const out = [`aureus memory patterns: ${registry.checks} checked changes, ${kept}.`];
  if (registry.withoutFindings > 0)
    out.push(
      `${registry.withoutFindings} of them recorded no complete list of findings (written by an older AUREUS, or cut): no fix is counted next to them.`,
    );
  if (registry.rules.length === 0) out.push('', 'No rule fired, was overridden or fixed.');
  for (const rule of registry.rules) {
    out.push(
      '',
      `${oneLine(rule.rule)}: fired in ${rule.fired} checks, overridden ${rule.overrides} times, ${rule.fixes} findings fixed`,
    );
    for (const week of rule.weeks) {
      out.push(
        `  week of ${week.week}: fired ${week.fired}, overridden ${week.overrides.length}, fixed ${week.fixes.length}`,
      );
      for (const override of week.overrides)
        out.push(
          `    override ${oneLine(override.at)} ${commitOf(override.commit)} by ${oneLine(override.by)}: ${oneLine(override.reason)}`,
        );
      for (const fix of week.fixes)
        out.push(
          `    fixed    ${oneLine(fix.at)} ${commitOf(fix.commit)} finding ${oneLine(fix.fingerprint)} (present at ${commitOf(fix.from)})`,
        );
    }
  }
  return `${out.join('\n')}\n`;
}

function commitOf(commit: string | null): string {
  return commit === null ? '(no commit)' : oneLine(commit.slice(0, 12));
}
