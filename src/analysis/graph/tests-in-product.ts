import type { ModuleGraph } from './module-graph.js';

/**
 * The files named as tests that the rest of the code runs: reached from a file that is not a
 * test by imports TypeScript's emit keeps, directly or through other such files. They ship
 * with the product, whatever their names say, so they are judged and priced as the code they
 * are; otherwise naming a file `*.test.ts` and importing it would take a god class out of the
 * critic's sight and three quarters off its price. An import kept only as a type runs nothing.
 */
export function testsInProduct(
  graph: ModuleGraph,
  isTest: (path: string) => boolean,
): ReadonlySet<string> {
  const reached = new Set<string>();
  const queue = graph.nodes.filter((path) => !isTest(path));
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const edge of graph.outgoing.get(next) ?? []) {
      if (edge.typeOnly || !isTest(edge.to) || reached.has(edge.to)) continue;
      reached.add(edge.to);
      queue.push(edge.to);
    }
  }
  return reached;
}
