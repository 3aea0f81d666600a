import type { ModuleRule } from '../../model/policy.js';
import { globMatcher } from '../../policy/glob-matcher.js';
import { findingOf, lineLocation } from '../finding-of.js';
import { pathKinds } from '../path-kinds.js';
import type { Rule } from '../rule.js';
import { distinctlyNamed } from '../symbols.js';
import { listed } from '../wording.js';

const HOW_TO_FIX =
  'Move the code it needs into a module it may import, invert the dependency (the other module calls in, or receives what it needs), or change `modules` in the policy in a reviewed change.';

/**
 * One finding per import line of a product file that reaches a module its own module may not
 * import (the policy's `modules`: `may_import` allows only the modules listed, `may_not_import`
 * forbids those listed). Imports inside a module, and to or from files in no module, are
 * allowed; with `type_only_allowed`, so are imports TypeScript's emit erases. Symbol:
 * `from → to` by module names, numbered in the file's line order (distinctlyNamed), so moving
 * lines or renaming the imported file keeps the finding and one more import is one new finding.
 * A file two modules take is a finding of its own (which rules judge it is unclear), and an
 * import into it is judged as an import of each: the policy check refuses globs that visibly
 * nest, and this fails closed on the overlaps it cannot see.
 */
export const forbiddenDependency: Rule = {
  id: 'forbidden_dependency',
  description: "An import from one module to another that the policy's `modules` forbids.",
  check({ policy, project }) {
    const modules = Object.entries(policy.modules).map(([name, rule]) => ({
      name,
      rule,
      holds: globMatcher(rule.paths),
    }));
    if (modules.length === 0) return [];
    const modulesOf = (path: string) => modules.filter((module) => module.holds(path));
    const { isProduct } = pathKinds(policy, project);
    return project.graph.nodes.filter(isProduct).flatMap((path) => {
      const own = modulesOf(path);
      const [from] = own;
      if (from === undefined) return [];
      if (own.length > 1) {
        const names = own.map((module) => module.name);
        return [
          findingOf('forbidden_dependency', {
            message: `${path} is in ${listed(names)} at once, so which module rules judge its imports is unclear. Narrow those modules' paths so that one module holds it.`,
            location: lineLocation(path, 1),
            symbol: `in ${names.join(', ')}`,
            measured: own.length,
            limit: 1,
          }),
        ];
      }
      const broken = (project.graph.outgoing.get(path) ?? []).flatMap((edge) => {
        const targets = modulesOf(edge.to);
        if (targets.some((target) => target.name === from.name)) return [];
        const to = targets.find((target) => forbids(from.rule, target.name));
        if (to === undefined) return [];
        return edge.imports
          .filter((fact) => fact.emitted || !from.rule.type_only_allowed)
          .map((fact) => ({ to: to.name, file: edge.to, line: fact.line, runs: fact.emitted }));
      });
      broken.sort((a, b) => a.line - b.line);
      return distinctlyNamed(broken, (hit) => `${from.name} → ${hit.to}`).map(({ item, symbol }) =>
        findingOf('forbidden_dependency', {
          message: `${path} imports ${item.file} of module ${item.to}${item.runs ? '' : ' (type-only)'}, but ${ruleText(from.name, from.rule)}. ${HOW_TO_FIX}`,
          location: lineLocation(path, item.line),
          symbol,
          measured: null,
          limit: null,
        }),
      );
    });
  },
};

function forbids(rule: ModuleRule, target: string): boolean {
  if (rule.may_import !== undefined) return !rule.may_import.includes(target);
  return rule.may_not_import?.includes(target) ?? false;
}

function ruleText(name: string, rule: ModuleRule): string {
  if (rule.may_import === undefined) {
    return `module ${name} may not import ${listed(rule.may_not_import ?? [])} (modules.${name}.may_not_import)`;
  }
  const allowed = rule.may_import.length === 0 ? 'no other module' : listed(rule.may_import);
  return `module ${name} may import only ${allowed} (modules.${name}.may_import)`;
}
