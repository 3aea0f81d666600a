import { compareStrings } from '../analysis/graph/module-graph.js';
import type { Finding } from '../model/finding.js';
import { RULES } from './registry.js';
import type { RuleContext } from './rule.js';

/**
 * Runs every rule the policy does not turn `off` and returns their findings, each at the
 * policy's severity (a rule's own `warn` stays a warning, see Rule), sorted by path, line,
 * rule id, then symbol: repository-wide findings (no location) first. Pure and deterministic:
 * the same context gives the same list in every surface.
 */
export function runCritic(context: RuleContext): Finding[] {
  const findings: Finding[] = [];
  for (const rule of RULES) {
    const severity = context.policy.forbidden_patterns[rule.id].severity;
    if (severity === 'off') continue;
    for (const finding of rule.check(context)) {
      findings.push(severity === 'warn' ? { ...finding, severity } : finding);
    }
  }
  return findings.sort(compareFindings);
}

function compareFindings(a: Finding, b: Finding): number {
  return (
    compareStrings(a.location?.path ?? '', b.location?.path ?? '') ||
    (a.location?.startLine ?? 0) - (b.location?.startLine ?? 0) ||
    compareStrings(a.ruleId, b.ruleId) ||
    compareStrings(a.symbol, b.symbol)
  );
}
