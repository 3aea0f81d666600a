import { findingsPerFile, lineLocation, placeFinding } from '../finding-of.js';
import { pathKinds } from '../path-kinds.js';
import type { Rule } from '../rule.js';
import { ordinallyNamed, REFLECTION_WORDING } from '../symbols.js';

/**
 * Each reflection fact (eval, new Function, Proxy, Reflect, dynamic import or require of a
 * computed name, getattr/__import__, Java reflection) in a product file (PathKinds.isProduct:
 * a test loading fixtures by computed name, or generated code, is not the design being
 * judged). Symbol: `kind:n`, the
 * n-th fact of that kind in the file (ordinallyNamed). Not the line, which every edit above
 * shifts; not the enclosing function, whose renaming would make every reflection in it look
 * new. With ordinals, adding one eval anywhere in a file makes exactly one new finding, and
 * evals elsewhere, or reflection of another kind, rename nothing.
 */
export const reflection: Rule = {
  id: 'reflection',
  scope: 'file',
  description:
    'Reflection-based metaprogramming: eval, new Function, Proxy, Reflect, dynamic imports of computed names, getattr/__import__, Java reflection.',
  check({ policy, project }) {
    return findingsPerFile(project, pathKinds(policy, project).isProduct, (path, facts) =>
      ordinallyNamed(facts.reflection, (fact) => fact.kind).map(({ item, symbol }) =>
        placeFinding(
          'reflection',
          lineLocation(path, item.line),
          symbol,
          `${path} uses ${REFLECTION_WORDING[item.kind]} on line ${item.line}`,
        ),
      ),
    );
  },
};
