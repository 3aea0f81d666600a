import { abstractionLocation, implementationsSentence, isUsedAsContract } from '../abstractions.js';
import { findingOf } from '../finding-of.js';
import { pathKinds } from '../path-kinds.js';
import type { Rule } from '../rule.js';

/** A repository pattern pays for its indirection only once a second backend exists. */
const BACKENDS_NEEDED = 2;

/** `UserRepository`, `OrderRepo`: the repository pattern's names. */
const REPOSITORY_NAME = /(Repository|Repo)$/;

/**
 * An abstraction named `*Repository` or `*Repo` with fewer than 2 concrete implementations:
 * a storage interface over a single backend. It overlaps premature_abstraction on purpose
 * (this one fires even when that one is off or exempts the name, and says why the abstraction
 * is premature). The same contract test applies (isUsedAsContract): an interface no class
 * implements is not counted, since its backends, if any, are invisible to the facts (object
 * literals typed with it). Implementations count from any file, as there; abstractions
 * declared in test or generated files are not reported. Symbol: the abstraction's name;
 * location: its span.
 */
export const singleBackendRepository: Rule = {
  id: 'single_backend_repository',
  description:
    'A repository-pattern abstraction (*Repository, *Repo) over a single storage backend.',
  check({ policy, project }) {
    const { isProduct } = pathKinds(policy, project);
    return project.implementations
      .filter(
        (abstraction) =>
          isProduct(abstraction.file) &&
          REPOSITORY_NAME.test(abstraction.name) &&
          isUsedAsContract(abstraction) &&
          abstraction.concrete.length < BACKENDS_NEEDED,
      )
      .map((abstraction) =>
        findingOf('single_backend_repository', {
          message: `${implementationsSentence(abstraction)}: a repository pattern over a single backend, where ${BACKENDS_NEEDED} backends would justify it`,
          location: abstractionLocation(project, abstraction),
          symbol: abstraction.name,
          measured: abstraction.concrete.length,
          limit: BACKENDS_NEEDED,
        }),
      );
  },
};
