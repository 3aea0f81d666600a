import type { Policy } from '../model/policy.js';
import { globMatcher, type PathTest } from '../policy/glob-matcher.js';

/** How the policy's `paths` sort a file (`paths.ignore` is applied before facts are made). */
export interface PathKinds {
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
 * Every rule asks for the kinds of the same policy; compiling its globs once per policy object
 * (policies are never mutated) keeps a hook's run from compiling them a dozen times. A
 * WeakMap, so a policy and its matchers go away together.
 */
const kindsByPolicy = new WeakMap<Policy, PathKinds>();

export function pathKinds(policy: Policy): PathKinds {
  let kinds = kindsByPolicy.get(policy);
  if (kinds === undefined) {
    kinds = compilePathKinds(policy);
    kindsByPolicy.set(policy, kinds);
  }
  return kinds;
}

function compilePathKinds(policy: Policy): PathKinds {
  const isTest = globMatcher(policy.paths.tests);
  const isGenerated = globMatcher(policy.paths.generated);
  const inCore = globMatcher(policy.paths.core);
  const isProduct = (path: string) => !isTest(path) && !isGenerated(path);
  return { isTest, isGenerated, isProduct, isCore: (path) => inCore(path) && isProduct(path) };
}
