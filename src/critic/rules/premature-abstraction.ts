import { abstractionLocation, implementationsSentence, isUsedAsContract } from '../abstractions.js';
import { findingOf } from '../finding-of.js';
import { pathKinds } from '../path-kinds.js';
import type { Rule } from '../rule.js';

/**
 * An interface, abstract class or protocol with fewer concrete implementations than
 * `min_implementations`, unless its name is in `core_interfaces` (a deliberate extension
 * point). Concrete: classes below it through `extends`/`implements` chains across files, less
 * abstract ones (AbstractionImplementations.concrete), in any file, test doubles included;
 * abstractions declared in test or generated files are not reported (PathKinds.isProduct).
 * Interfaces and protocols count only once some class names them (isUsedAsContract): one that
 * no class implements is a data shape, not an abstraction. Go is left out (its interfaces are
 * satisfied without being named). Symbol: the abstraction's name; location: its span.
 */
export const prematureAbstraction: Rule = {
  id: 'premature_abstraction',
  description:
    'An interface or abstract class with fewer concrete implementations than forbidden_patterns.premature_abstraction.min_implementations.',
  check({ policy, project }) {
    const { min_implementations: minimum, core_interfaces: exempt } =
      policy.forbidden_patterns.premature_abstraction;
    const { isProduct } = pathKinds(policy, project);
    return project.implementations
      .filter(
        (abstraction) =>
          isProduct(abstraction.file) &&
          isUsedAsContract(abstraction) &&
          abstraction.concrete.length < minimum &&
          !exempt.includes(abstraction.name),
      )
      .map((abstraction) =>
        findingOf('premature_abstraction', {
          message: `${implementationsSentence(abstraction)}; the minimum is ${minimum} (forbidden_patterns.premature_abstraction.min_implementations)`,
          location: abstractionLocation(project, abstraction),
          symbol: abstraction.name,
          measured: abstraction.concrete.length,
          limit: minimum,
        }),
      );
  },
};
