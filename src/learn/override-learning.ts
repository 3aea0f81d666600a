import type { Policy } from '../model/policy.js';
import type { LearnedCheck } from './ledger-checks.js';
import { type PolicyEdit, roundUpToTen } from './policy-edit.js';

type Patterns = Policy['forbidden_patterns'];

/**
 * Override learning. A rule or the change budget overridden at least
 * `learning.relax_after_overrides` times in the window is relaxed: the rule from error to warn,
 * the budget to the dearest change let through. A rule at warn that fired in none of at least
 * `learning.min_changes` checks is tightened to error: enforcing it costs the team nothing seen.
 */
export function overrideEdits(
  checks: readonly LearnedCheck[],
  policy: Policy,
  days: number,
): PolicyEdit[] {
  const { relax_after_overrides: enough, min_changes: minChanges } = policy.learning;
  const overridden = checks.filter((check) => check.override !== null);
  const edits: PolicyEdit[] = [];
  const patterns: Patterns = policy.forbidden_patterns;
  for (const [rule, settings] of Object.entries(patterns)) {
    const against = overridden.filter((check) => check.blockedBy.includes(rule));
    if (against.length >= enough && settings.severity === 'error')
      edits.push({
        path: ['forbidden_patterns', rule, 'severity'],
        from: 'error',
        to: 'warn',
        kind: 'relaxation',
        why: `${rule} blocked ${against.length} changes that were let through by an override in ${days} days (learning.relax_after_overrides: ${enough}).`,
        evidence: against.map((check) => check.evidence),
      });
  }
  const overBudget = overridden.filter((check) => check.overBudget);
  const { warn, block } = policy.budgets.change;
  if (overBudget.length >= enough) {
    const dearest = Math.max(...overBudget.map((check) => check.total));
    const raised = roundUpToTen(dearest);
    if (raised > block) {
      const reason = `the change budget was overridden ${overBudget.length} times in ${days} days (learning.relax_after_overrides: ${enough}); the dearest change let through cost ${dearest} points.`;
      edits.push(
        {
          path: ['budgets', 'change', 'block'],
          from: block,
          to: raised,
          kind: 'relaxation',
          why: reason,
          evidence: overBudget.map((check) => check.evidence),
        },
        {
          path: ['budgets', 'change', 'warn'],
          from: warn,
          to: Math.round((raised * warn) / Math.max(block, 1)),
          kind: 'relaxation',
          why: 'the warning line keeps its share of the block line.',
          evidence: [],
        },
      );
    }
  }
  return [...edits, ...tightenings(checks, patterns, minChanges, days)];
}

function tightenings(
  checks: readonly LearnedCheck[],
  patterns: Patterns,
  minChanges: number,
  days: number,
): PolicyEdit[] {
  // A record that kept only its first reasons may hide the rule: no silence can be vouched for.
  if (checks.length < minChanges || checks.some((check) => check.reasonsCut)) return [];
  const fired = new Set(checks.flatMap((check) => check.fired));
  const first = checks.reduce((a, b) => (b.at < a.at ? b : a));
  const last = checks.reduce((a, b) => (b.at > a.at ? b : a));
  return Object.entries(patterns).flatMap(([rule, settings]): PolicyEdit[] =>
    settings.severity === 'warn' && !fired.has(rule)
      ? [
          {
            path: ['forbidden_patterns', rule, 'severity'],
            from: 'warn',
            to: 'error',
            kind: 'tightening',
            why: `${rule} did not fire in any of the ${checks.length} checks of the last ${days} days (learning.min_changes: ${minChanges}), from the first to the last below.`,
            evidence: [first.evidence, last.evidence],
          },
        ]
      : [],
  );
}
