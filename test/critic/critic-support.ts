import { findCycles } from '../../src/analysis/graph/find-cycles.js';
import { buildModuleGraph } from '../../src/analysis/graph/module-graph.js';
import { groupModules } from '../../src/analysis/graph/policy-modules.js';
import { resolveHeritage } from '../../src/analysis/semantics/heritage.js';
import { countImplementations } from '../../src/analysis/semantics/implementations.js';
import { inheritanceDepth } from '../../src/analysis/semantics/inheritance-depth.js';
import type { ChangeContext, ProjectState, RuleContext } from '../../src/critic/rule.js';
import type { ImportFact } from '../../src/model/facts.js';
import type { Finding } from '../../src/model/finding.js';
import type { Policy } from '../../src/model/policy.js';
import { parsePolicy } from '../../src/policy/parse-policy.js';
import { factsOf, resolveAmong } from '../analysis/semantics/semantics-support.js';

/** A policy as a user would write it (the body after `version: 1`), completed with defaults. */
export function policyFrom(yaml = ''): Policy {
  const parsed = parsePolicy(`version: 1\n${yaml}`, '.aureus/policy.yaml');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.policy;
}

/**
 * The ProjectState of inline sources, built as analyzeRepository builds it but without git:
 * the real extractors, a resolver among the given paths, the real graph,
 * cycles, modules and heritage.
 */
export async function projectOf(
  sources: Record<string, string>,
  policy: Policy,
): Promise<ProjectState> {
  const facts = await factsOf(sources);
  const resolve = resolveAmong(facts.keys());
  const imports = new Map<string, readonly ImportFact[]>();
  for (const [path, fileFacts] of facts) imports.set(path, fileFacts.imports);
  const graph = buildModuleGraph(imports, resolve);
  const heritage = resolveHeritage(facts, resolve);
  return {
    facts,
    graph,
    cycles: findCycles(graph, {
      includeTypeOnly: policy.forbidden_patterns.circular_dependency.count_type_only_imports,
    }),
    modules: groupModules(graph.nodes, policy.paths.core),
    implementations: countImplementations(heritage),
    inheritance: inheritanceDepth(heritage),
  };
}

/** A RuleContext for inline sources and a policy written as YAML. */
export async function contextOf(
  sources: Record<string, string>,
  policyYaml = '',
  change?: ChangeContext,
): Promise<RuleContext> {
  const policy = policyFrom(policyYaml);
  const project = await projectOf(sources, policy);
  return change === undefined ? { policy, project } : { policy, project, change };
}

/** A class spanning exactly `loc` code lines (`loc` ≥ 2): a header, one-line methods, `}`. */
export function classOfLoc(name: string, loc: number, prefix = 'export '): string {
  const methods = Array.from({ length: loc - 2 }, (_, i) => `  m${i}(): number { return ${i}; }`);
  return [`${prefix}class ${name} {`, ...methods, '}', ''].join('\n');
}

/** `n` lines of code, each a top-level statement. */
export function codeLines(count: number): string {
  return Array.from({ length: count }, (_, i) => `export const v${i} = ${i};\n`).join('');
}

/** Findings with only the fields a test compares: rule, symbol, path and line. */
export function briefly(findings: readonly Finding[]) {
  return findings.map(({ ruleId, symbol, location }) => ({
    ruleId,
    symbol,
    at: location === null ? null : `${location.path}:${location.startLine}`,
  }));
}
