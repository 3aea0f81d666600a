import type { AncestorLink } from '../../analysis/semantics/inheritance-depth.js';
import type { Finding } from '../../model/finding.js';
import { findingOf, lineLocation, spanLocation } from '../finding-of.js';
import { pathKinds } from '../path-kinds.js';
import type { Rule } from '../rule.js';

/**
 * A class with more than `max_depth` levels of `extends` above it, the chain followed across
 * files, aliases and re-exports (src/analysis/semantics/inheritance-depth.ts). A base outside
 * the repository (`React.Component`, `Error`) counts as one level and ends the chain, since its
 * own ancestors are out of sight; `implements` is never a level. Classes in product files only
 * (PathKinds.isProduct): a test suite's base classes are test scaffolding. The message names
 * the chain, nearest parent first; symbol the class name, location its span.
 */
export const deepInheritance: Rule = {
  id: 'deep_inheritance',
  description:
    'A class with more levels of extends above it than forbidden_patterns.deep_inheritance.max_depth.',
  check({ policy, project }) {
    const limit = policy.forbidden_patterns.deep_inheritance.max_depth;
    const { isProduct } = pathKinds(policy, project);
    const findings: Finding[] = [];
    for (const { file, name, depth, chain } of project.inheritance) {
      if (depth <= limit || !isProduct(file)) continue;
      const declared = project.facts.get(file)?.classes.find((cls) => cls.name === name);
      findings.push(
        findingOf('deep_inheritance', {
          message: `class ${name} extends ${chain.map(nameOf).join(' → ')}, ${depth} levels deep; the limit is ${limit} (forbidden_patterns.deep_inheritance.max_depth)`,
          location:
            declared === undefined ? lineLocation(file, 1) : spanLocation(file, declared.span),
          symbol: name,
          measured: depth,
          limit,
        }),
      );
    }
    return findings;
  },
};

function nameOf(link: AncestorLink): string {
  return link.kind === 'declaration' ? link.name : link.written;
}
