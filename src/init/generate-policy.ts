import type { JsonObject, JsonValue } from '../model/json.js';
import { CURRENT_POLICY_VERSION, type ForbiddenPatternId } from '../model/policy.js';
import { defaultPolicy } from '../policy/default-policy.js';
import type { AnalysisSummary } from './analysis-summary.js';
import { growthTolerances } from './growth-tolerances.js';
import { layeringRules } from './layering-rules.js';
import { BUDGET_RULES, patternSeverities } from './pattern-severities.js';
import type { Inferred, Maturity, ProjectIntelligence } from './project-intelligence.js';
import { securityBoundaries } from './security-boundaries.js';
import { sizeBudgets } from './size-budgets.js';
import { plural } from './wording.js';

/** A policy written for one project, with the reason for every value it sets. */
export interface GeneratedPolicy {
  /** The policy document: only the generated keys; everything else keeps its default. */
  readonly document: JsonObject;
  /** Why each generated value has its value, by dotted key path, in document order. */
  readonly reasons: ReadonlyMap<string, string>;
  /** Whether today's findings become the baseline, so only new ones block. */
  readonly baseline: Inferred<boolean>;
}

/**
 * The policy for what inferProject found and what the analysis sees today: the project's
 * description, budgets sized to its maturity, forbidden-pattern severities from today's
 * findings, security weights and protected paths from the surfaces it touches, its test
 * command and its core. Pure and deterministic.
 */
export function generatePolicy(
  intelligence: ProjectIntelligence,
  summary: AnalysisSummary,
): GeneratedPolicy {
  const design = defaultPolicy();
  const document: JsonObject = { version: CURRENT_POLICY_VERSION };
  const reasons = new Map<string, string>();
  const put = (path: string, inferred: Inferred<JsonValue>) => {
    setIn(document, path.split('.'), inferred.value);
    reasons.set(path, inferred.reason);
  };
  const { name, type, languages, frameworks, testCommand, core, maturity, team } = intelligence;

  put('project.name', name);
  put('project.type', type);
  put('project.stack.languages', {
    value: languages.value.map((share) => share.language),
    reason: languages.reason,
  });
  put('project.stack.frameworks', { value: [...frameworks.value], reason: frameworks.reason });
  put('project.stack.test_command', { value: [...testCommand.value], reason: testCommand.reason });
  put('project.maturity', maturity);

  const { change, new_dependencies: newDependencies } = design.budgets;
  put('budgets.change', {
    value: { warn: change.warn, block: change.block },
    reason: `design default: about ${change.block} added lines, what one reviewer reads in a sitting, whatever the size of the team (${plural(team.value, 'recent author')}) or of the code`,
  });
  const sizes = sizeBudgets(core.value, maturity.value, design.budgets);
  put('budgets.core_loc', sizes.coreLoc);
  put('budgets.core_files', sizes.coreFiles);
  put('budgets.core_modules', sizes.coreModules);
  put('budgets.new_dependencies', {
    value: newDependencies,
    reason: 'design default: each new dependency is priced as well',
  });

  const severities = patternSeverities(summary, maturity.value, design.forbidden_patterns);
  const tolerances = growthTolerances(summary, maturity.value, severities);
  for (const [id, severity] of severities) {
    const tolerance = tolerances.get(id);
    if (tolerance === undefined) {
      put(`forbidden_patterns.${id}`, {
        value: { severity: severity.value },
        reason: severity.reason,
      });
    } else {
      // Two settings, each with its reason on its own line.
      put(`forbidden_patterns.${id}.severity`, severity);
      put(`forbidden_patterns.${id}.growth_tolerance`, tolerance);
    }
  }

  for (const [name, rule] of layeringRules(core.value, intelligence.layering.value)) {
    put(`modules.${name}`, { value: { ...rule.value }, reason: rule.reason });
  }

  const security = securityBoundaries(summary, maturity.value, design);
  for (const [surface, weight] of security.weights ?? []) {
    put(`pricing.security.${surface}`, weight);
  }
  if (testCommand.value.length > 0) {
    put('permissions.allowed_commands', {
      value: [[...testCommand.value]],
      reason: 'the test command, so the builder agent can verify its patches',
    });
  }
  if (security.protectedPaths !== null) {
    put('permissions.protected_paths', {
      value: [...security.protectedPaths.value],
      reason: security.protectedPaths.reason,
    });
  }
  put('paths.core', { value: [...core.value.globs], reason: core.reason });

  const baseline = baselineFor(summary, maturity.value, severities);
  return { document, reasons, baseline };
}

/**
 * A legacy project records today's findings so only new ones block; a younger one has few
 * enough to fix. Budget findings are left out of the count: the generated budgets sit above
 * today's code, so the baseline will not hold them.
 */
function baselineFor(
  summary: AnalysisSummary,
  maturity: Maturity,
  severities: ReadonlyMap<ForbiddenPatternId, Inferred<string>>,
): Inferred<boolean> {
  const known = summary.findings.filter((finding) => !BUDGET_RULES.has(finding.ruleId));
  const errors = known.filter((finding) => severities.get(finding.ruleId)?.value === 'error');
  // The module rules are init's own reading of the code: what they find today is not the
  // project's to fix before it may commit again.
  const layering = known.filter((finding) => finding.ruleId === 'forbidden_dependency').length;
  if (maturity === 'legacy' || layering > 0) {
    const why =
      maturity === 'legacy'
        ? 'a legacy code base'
        : `${plural(layering, 'import')} already against the module rules written above`;
    return {
      value: true,
      reason: `${why}: today's ${plural(known.length, 'finding')} go into the baseline, so only new ones block`,
    };
  }
  if (errors.length === 0) {
    return {
      value: false,
      reason:
        known.length === 0
          ? 'no findings today'
          : `not for a ${maturity} project: today's ${plural(known.length, 'finding')} only warn`,
    };
  }
  return {
    value: false,
    reason: `not for a ${maturity} project: fix today's ${plural(errors.length, 'error finding')}, or record them with \`aureus baseline\``,
  };
}

/** Sets `value` at `path`, creating the objects on the way. */
function setIn(target: JsonObject, path: readonly string[], value: JsonValue): void {
  const [key, ...rest] = path;
  if (key === undefined) return;
  if (rest.length === 0) {
    target[key] = value;
    return;
  }
  const next = target[key];
  const child: JsonObject = isObject(next) ? next : {};
  target[key] = child;
  setIn(child, rest, value);
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
