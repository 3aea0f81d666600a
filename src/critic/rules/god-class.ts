import type { Finding } from '../../model/finding.js';
import { findingOf, spanLocation } from '../finding-of.js';
import { pathKinds } from '../path-kinds.js';
import type { Rule } from '../rule.js';
import { distinctlyNamed } from '../symbols.js';

/**
 * A class whose `loc` (code lines within its span, so comments and blank lines do not count,
 * and never fewer than its methods or its code's width allows: ClassFact `loc`) is more than
 * `max_loc`; exactly `max_loc` passes. Test and generated files are left out:
 * a long test suite class or a generated client is not a design choice. One finding per
 * class, at its span, symbol the class name (`Name#2` for a second class of the same name in
 * the file, see distinctlyNamed).
 */
export const godClass: Rule = {
  id: 'god_class',
  scope: 'file',
  description: 'A class with more lines of code than forbidden_patterns.god_class.max_loc.',
  check({ policy, project }) {
    const limit = policy.forbidden_patterns.god_class.max_loc;
    const { isProduct } = pathKinds(policy, project);
    const findings: Finding[] = [];
    for (const [path, facts] of project.facts) {
      if (!isProduct(path)) continue;
      for (const { item: cls, symbol } of distinctlyNamed(facts.classes, (cls) => cls.name)) {
        if (cls.loc <= limit) continue;
        findings.push(
          findingOf('god_class', {
            message: `class ${cls.name} spans ${cls.loc} lines of code; the limit is ${limit} (forbidden_patterns.god_class.max_loc)`,
            location: spanLocation(path, cls.span),
            symbol,
            measured: cls.loc,
            limit,
          }),
        );
      }
    }
    return findings;
  },
};
