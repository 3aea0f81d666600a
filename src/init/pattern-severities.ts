import type { ForbiddenPatternId, Policy } from '../model/policy.js';
import type { AnalysisSummary } from './analysis-summary.js';
import type { Inferred, Maturity } from './project-intelligence.js';
import { plural } from './wording.js';

type Severity = Policy['forbidden_patterns'][ForbiddenPatternId]['severity'];

/**
 * Ten existing instances make a pattern part of how this code base is written: blocking the
 * eleventh would block ordinary work that follows the code around it. Such a rule is demoted to
 * `warn` (reported, never blocking) until the instances are paid down; it is never turned off.
 */
export const PERVASIVE_FINDINGS = 10;

/** Rules about the budgets: the generated budgets decide what they report, not their severity. */
export const BUDGET_RULES: ReadonlySet<ForbiddenPatternId> = new Set([
  'dependency_budget',
  'module_budget',
  'file_budget',
  'loc_budget',
]);

/**
 * Each forbidden pattern's severity, chosen from today's findings: the design's severity where
 * the code follows the rule or breaks it a few times (those findings go into the baseline of a
 * legacy project, or are few enough to fix now); `warn` where a legacy or growing code base
 * breaks it pervasively. Never `off`: a rule the code breaks everywhere is the one to watch.
 */
export function patternSeverities(
  summary: AnalysisSummary,
  maturity: Maturity,
  design: Policy['forbidden_patterns'],
): ReadonlyMap<ForbiddenPatternId, Inferred<Severity>> {
  const severities = new Map<ForbiddenPatternId, Inferred<Severity>>();
  for (const id of Object.keys(design)) {
    if (!isPatternId(id, design)) continue;
    const severity = design[id].severity;
    if (BUDGET_RULES.has(id)) {
      const reason =
        id === 'dependency_budget'
          ? `design severity: budgets.new_dependencies bounds each change`
          : `design severity: the budgets above are what it measures against`;
      severities.set(id, { value: severity, reason });
      continue;
    }
    const found = summary.findings.filter((finding) => finding.ruleId === id);
    const example = found.find((finding) => finding.path !== null)?.path;
    const where = example === undefined ? '' : `, e.g. ${example}`;
    if (found.length === 0) {
      severities.set(id, { value: severity, reason: `no violation today: kept at ${severity}` });
    } else if (
      maturity !== 'greenfield' &&
      severity === 'error' &&
      // Only findings that would block: a parser's invalid test inputs, which unparsable_file
      // only warns about, are no sign that new broken product files are ordinary here.
      found.filter((finding) => finding.severity === 'error').length >= PERVASIVE_FINDINGS
    ) {
      severities.set(id, {
        value: 'warn',
        reason: `${plural(found.length, 'violation')} today${where}: pervasive here, so new ones warn instead of blocking; back to error once paid down`,
      });
    } else {
      const them = found.length === 1 ? 'it' : 'them';
      const handled =
        maturity === 'legacy'
          ? `the baseline holds ${them}, new ones`
          : `fix ${them} or record ${them} with \`aureus baseline\`; new ones`;
      severities.set(id, {
        value: severity,
        reason: `${plural(found.length, 'violation')} today${where}: ${handled} ${severity === 'error' ? 'block' : 'warn'}`,
      });
    }
  }
  return severities;
}

function isPatternId(key: string, design: Policy['forbidden_patterns']): key is ForbiddenPatternId {
  return Object.hasOwn(design, key);
}
