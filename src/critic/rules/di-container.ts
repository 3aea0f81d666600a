import { findingsPerFile, lineLocation, placeFinding } from '../finding-of.js';
import { pathKinds } from '../path-kinds.js';
import type { Rule } from '../rule.js';
import { ordinallyNamed } from '../symbols.js';

/** DiContainerFact's library for a container call whose file imports no known library. */
const UNKNOWN_LIBRARY = '(unknown)';

/**
 * Each use of a dependency-injection container (DiContainerFact: an import of a DI library,
 * a framework's `Injectable`/`Inject`, a register/resolve call on a `*container`) in a core
 * file (PathKinds.isCore: under `paths.core`, not a test nor generated). Outside the core,
 * in the entry points that wire the application together, a container is the user's call.
 * Symbol: `library:n`, the n-th use of that library in the file (ordinallyNamed), so moving
 * code keeps the finding and one more use makes one new finding; location: its line.
 */
export const diContainer: Rule = {
  id: 'di_container',
  scope: 'file',
  description: 'A dependency-injection container used in the core (paths.core).',
  check({ policy, project }) {
    return findingsPerFile(project, pathKinds(policy, project).isCore, (path, facts) =>
      ordinallyNamed(facts.diContainers, (use) => use.library).map(({ item, symbol }) => {
        const container =
          item.library === UNKNOWN_LIBRARY
            ? 'a dependency-injection container'
            : `the dependency-injection container ${item.library}`;
        return placeFinding(
          'di_container',
          lineLocation(path, item.line),
          symbol,
          `core file ${path} uses ${container} on line ${item.line}`,
        );
      }),
    );
  },
};
