import type { ModuleGraph } from '../analysis/graph/module-graph.js';
import { testsInProduct } from '../analysis/graph/tests-in-product.js';
import { generatedBy } from '../critic/path-kinds.js';
import type { FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import { globMatcher } from '../policy/glob-matcher.js';

/**
 * How the policy's `paths` sort a changed file for pricing. The caller passes the BASE
 * policy, so a change cannot make itself cheaper by ignoring or re-labelling its own files.
 * `dot: true` as everywhere in AUREUS: dot-folders are tracked code like any other.
 */
export interface PathRules {
  /** Under `paths.ignore`: never priced. */
  readonly isIgnored: (path: string) => boolean;
  /**
   * Under `paths.generated` and, where the head's facts tell, marked by its generator
   * (path-kinds.ts generatedBy): priced at `generated_code_weight`, never critiqued.
   */
  readonly isGenerated: (path: string) => boolean;
  /**
   * The multiplier on a file's lines at the head: `test_code_weight` under `paths.tests`,
   * `generated_code_weight` under `paths.generated`, 1 elsewhere. A path in both takes the
   * smaller weight, the one that says the file matters least. A file named as a test that
   * the product runs is product code (tests-in-product.ts).
   */
  readonly weightOf: (path: string) => number;
  /** The same at the base: what a file's base lines were priced at. */
  readonly baseWeightOf: (path: string) => number;
  /** `test code`, `generated code` or null: why a file's weight is not 1, for details. */
  readonly labelOf: (path: string) => string | null;
  /** Named as generated code, but read at the head without its generator's mark: code. */
  readonly isUnmarkedGenerated: (path: string) => boolean;
}

/** Per side, the files named as tests that the product runs (shippedTests): priced as code. */
export interface SideShippedTests {
  readonly base?: ReadonlySet<string> | undefined;
  readonly head?: ReadonlySet<string> | undefined;
}

/** The files under the policy's `paths.tests` that the rest of `graph` runs (tests-in-product.ts). */
export function shippedTests(policy: Policy, graph: ModuleGraph): ReadonlySet<string> {
  return testsInProduct(graph, globMatcher(policy.paths.tests));
}

/** Per side, the facts of the files priced (a generated file's mark is read from them). */
export interface SideFacts {
  readonly base?: ReadonlyMap<string, FileFacts> | undefined;
  readonly head?: ReadonlyMap<string, FileFacts> | undefined;
}

export function pathRules(
  policy: Policy,
  shipped: SideShippedTests = {},
  facts: SideFacts = {},
): PathRules {
  const isIgnored = globMatcher(policy.paths.ignore);
  const namedTest = globMatcher(policy.paths.tests);
  const isGenerated = generatedBy(policy.paths.generated, facts.head);
  const wasGenerated = generatedBy(policy.paths.generated, facts.base);
  const namedGenerated = globMatcher(policy.paths.generated);
  const { test_code_weight: testWeight, generated_code_weight: generatedWeight } = policy.pricing;
  const testsOf = (side: ReadonlySet<string> | undefined) => (path: string) =>
    namedTest(path) && side?.has(path) !== true;
  const weightWith =
    (isTest: (path: string) => boolean, generated: (path: string) => boolean) => (path: string) => {
      const weights = [1];
      if (isTest(path)) weights.push(testWeight);
      if (generated(path)) weights.push(generatedWeight);
      return Math.min(...weights);
    };
  const isTest = testsOf(shipped.head);
  const labelOf = (path: string) => {
    if (isGenerated(path) && (!isTest(path) || generatedWeight <= testWeight)) {
      return 'generated code';
    }
    return isTest(path) ? 'test code' : null;
  };
  return {
    isIgnored,
    isGenerated,
    weightOf: weightWith(isTest, isGenerated),
    baseWeightOf: weightWith(testsOf(shipped.base), wasGenerated),
    labelOf,
    isUnmarkedGenerated: (path) => namedGenerated(path) && !isGenerated(path),
  };
}
