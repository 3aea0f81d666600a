import type { ModuleGraph } from '../analysis/graph/module-graph.js';
import { testsInProduct } from '../analysis/graph/tests-in-product.js';
import type { Policy } from '../model/policy.js';
import { globMatcher, type PathTest } from '../policy/glob-matcher.js';

/** How the policy's `paths` sort a file (`paths.ignore` is applied before facts are made). */
export interface PathKinds {
  /**
   * Under `paths.tests`, and not run by the product: a file named as a test that product code
   * imports at run time ships, so it is product code (tests-in-product.ts).
   */
  readonly isTest: PathTest;
  readonly isGenerated: PathTest;
  /**
   * Neither test nor generated code: the code the project writes and ships. The critic judges
   * this code only: every rule reports places in product files, except circular_dependency (a
   * cycle through a test is still a cycle). Tests still count as what they are elsewhere:
   * implementations (a test double implements an interface), importers of a file.
   */
  readonly isProduct: PathTest;
  /**
   * A product file under `paths.core`: the files the core budgets count and the core-only
   * rules (di_container, plugin_registry) look at. A test kept next to the code (`src/**` with
   * `*.test.ts`) is not core: it neither grows the core nor shapes its architecture.
   */
  readonly isCore: PathTest;
}

/**
 * Every rule asks for the kinds of the same policy and snapshot; compiling its globs once per
 * policy object and walking the graph once per snapshot (neither is ever mutated) keeps a hook's
 * run from doing it a dozen times. WeakMaps, so the kinds go away with their inputs.
 */
const kindsByGraph = new WeakMap<ModuleGraph, WeakMap<Policy, PathKinds>>();

/** The kinds of a snapshot's files, `graph` its import graph. */
export function pathKinds(policy: Policy, graph: ModuleGraph): PathKinds {
  const byPolicy = kindsByGraph.get(graph) ?? new WeakMap<Policy, PathKinds>();
  kindsByGraph.set(graph, byPolicy);
  let kinds = byPolicy.get(policy);
  if (kinds === undefined) {
    kinds = compilePathKinds(policy, graph);
    byPolicy.set(policy, kinds);
  }
  return kinds;
}

function compilePathKinds(policy: Policy, graph: ModuleGraph): PathKinds {
  const namedTest = globMatcher(policy.paths.tests);
  const shipped = testsInProduct(graph, namedTest);
  const isTest = (path: string) => namedTest(path) && !shipped.has(path);
  const isGenerated = globMatcher(policy.paths.generated);
  const inCore = globMatcher(policy.paths.core);
  const isProduct = (path: string) => !isTest(path) && !isGenerated(path);
  return { isTest, isGenerated, isProduct, isCore: (path) => inCore(path) && isProduct(path) };
}
