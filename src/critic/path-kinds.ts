import { detectLanguage } from '../analysis/detect-language.js';
import type { ModuleGraph } from '../analysis/graph/module-graph.js';
import { testsInProduct } from '../analysis/graph/tests-in-product.js';
import type { FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import { globMatcher, type PathTest } from '../policy/glob-matcher.js';

/** How the policy's `paths` sort a file (`paths.ignore` is applied before facts are made). */
export interface PathKinds {
  /**
   * Under `paths.tests`, and not run by the product: a file named as a test that product code
   * imports at run time ships, so it is product code (tests-in-product.ts).
   */
  readonly isTest: PathTest;
  /** Under `paths.generated`, and marked by its generator where AUREUS reads it (generatedBy). */
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
 *
 * The kinds are kept by snapshot, the graph's walk by graph: analyses of successive trees share
 * one graph while their files keep their imports (kept-graph.ts), but not their facts, and a
 * file's generator mark (generatedBy) is in its facts.
 */
const kindsBySnapshot = new WeakMap<KindedSnapshot, WeakMap<Policy, PathKinds>>();
const shippedByGraph = new WeakMap<ModuleGraph, WeakMap<Policy, ShippedTests>>();

/** Test files by the policy's names, and those of them product code imports at run time. */
interface ShippedTests {
  readonly namedTest: PathTest;
  readonly shipped: ReadonlySet<string>;
}

/** A snapshot as path kinds read it: its import graph and its files' facts. */
export interface KindedSnapshot {
  readonly graph: ModuleGraph;
  readonly facts: ReadonlyMap<string, FileFacts>;
}

/** The kinds of a snapshot's files. */
export function pathKinds(policy: Policy, snapshot: KindedSnapshot): PathKinds {
  const byPolicy = kindsBySnapshot.get(snapshot) ?? new WeakMap<Policy, PathKinds>();
  kindsBySnapshot.set(snapshot, byPolicy);
  let kinds = byPolicy.get(policy);
  if (kinds === undefined) {
    kinds = compilePathKinds(policy, snapshot);
    byPolicy.set(policy, kinds);
  }
  return kinds;
}

function shippedTests(policy: Policy, graph: ModuleGraph): ShippedTests {
  const byPolicy = shippedByGraph.get(graph) ?? new WeakMap<Policy, ShippedTests>();
  shippedByGraph.set(graph, byPolicy);
  let tests = byPolicy.get(policy);
  if (tests === undefined) {
    const namedTest = globMatcher(policy.paths.tests);
    tests = { namedTest, shipped: testsInProduct(graph, namedTest) };
    byPolicy.set(policy, tests);
  }
  return tests;
}

/**
 * Generated code by the policy's `paths.generated`, where a file AUREUS reads must also carry
 * its generator's mark (FileFacts `generatorMarked`): otherwise naming a file `*.generated.ts`
 * would take a god class out of the critic's sight and price it at generated_code_weight. A
 * file in a language AUREUS prices by lines goes by name; one in a language it reads but whose
 * facts are missing (over the read limit, a Git LFS pointer, unreadable) shows no mark, so it is
 * not generated: the bigger the file, the less its name may buy.
 */
export function generatedBy(
  globs: readonly string[],
  facts: ReadonlyMap<string, FileFacts> | undefined,
): PathTest {
  const named = globMatcher(globs);
  return (path) => {
    if (!named(path)) return false;
    const read = facts?.get(path);
    if (read !== undefined) return read.generatorMarked === true;
    return facts === undefined || detectLanguage(path) === undefined;
  };
}

function compilePathKinds(policy: Policy, { graph, facts }: KindedSnapshot): PathKinds {
  const { namedTest, shipped } = shippedTests(policy, graph);
  const isTest = (path: string) => namedTest(path) && !shipped.has(path);
  const isGenerated = generatedBy(policy.paths.generated, facts);
  const inCore = globMatcher(policy.paths.core);
  const isProduct = (path: string) => !isTest(path) && !isGenerated(path);
  return { isTest, isGenerated, isProduct, isCore: (path) => inCore(path) && isProduct(path) };
}
