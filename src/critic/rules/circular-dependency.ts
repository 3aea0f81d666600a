import type { GraphImport, ModuleGraph } from '../../analysis/graph/module-graph.js';
import { findingOf, lineLocation } from '../finding-of.js';
import type { Rule } from '../rule.js';
import { counted, listed } from '../wording.js';

/**
 * One finding per import cycle, a cycle being a strongly connected component of the import
 * graph (ProjectState.cycles: imports TypeScript's emit erases counted only when
 * `count_type_only_imports` says so; dynamic `import()`/`require()` with a literal counted).
 * Symbol: the component's sorted files joined by `\n`, so the finding is the same while the
 * same files form the cycle and a new one once a file joins or leaves it. Location: the first
 * of those files, at the line of its first counted import of another member (1 if none is
 * found); every other member is a related location, found the same way. Test files count: a
 * cycle through a test is still a cycle. Measured: the number of files; there is no limit to
 * compare it with.
 */
export const circularDependency: Rule = {
  id: 'circular_dependency',
  description: 'Files that import each other, directly or through others (an import cycle).',
  check({ policy, project }) {
    const countsTypeOnly = policy.forbidden_patterns.circular_dependency.count_type_only_imports;
    const counts = (fact: GraphImport) => (countsTypeOnly || fact.emitted) && !fact.deferred;
    return project.cycles.flatMap((component) => {
      const [first, ...others] = component;
      if (first === undefined) return [];
      const at = (file: string) =>
        lineLocation(file, firstImportInto(project.graph, file, component, counts));
      return [
        findingOf('circular_dependency', {
          message:
            component.length === 1
              ? `${first} imports itself`
              : `${listed(component)} import one another in a cycle of ${counted(component.length, 'file')}`,
          location: at(first),
          related: others.map(at),
          symbol: component.join('\n'),
          measured: component.length,
          limit: null,
        }),
      ];
    });
  },
};

function firstImportInto(
  graph: ModuleGraph,
  from: string,
  component: readonly string[],
  counts: (fact: GraphImport) => boolean,
): number {
  const members = new Set(component);
  const lines = (graph.outgoing.get(from) ?? [])
    .filter((edge) => members.has(edge.to))
    .flatMap((edge) => edge.imports.filter(counts).map((fact) => fact.line));
  return lines.length === 0 ? 1 : Math.min(...lines);
}
