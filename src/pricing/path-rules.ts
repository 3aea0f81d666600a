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
  /** Under `paths.generated`: priced at `generated_code_weight`, never critiqued. */
  readonly isGenerated: (path: string) => boolean;
  /**
   * The multiplier on a file's lines: `test_code_weight` under `paths.tests`,
   * `generated_code_weight` under `paths.generated`, 1 elsewhere. A path in both takes the
   * smaller weight, the one that says the file matters least.
   */
  readonly weightOf: (path: string) => number;
  /** `test code`, `generated code` or null: why a file's weight is not 1, for details. */
  readonly labelOf: (path: string) => string | null;
}

export function pathRules(policy: Policy): PathRules {
  const isIgnored = globMatcher(policy.paths.ignore);
  const isTest = globMatcher(policy.paths.tests);
  const isGenerated = globMatcher(policy.paths.generated);
  const { test_code_weight: testWeight, generated_code_weight: generatedWeight } = policy.pricing;
  const weightOf = (path: string) => {
    const weights = [1];
    if (isTest(path)) weights.push(testWeight);
    if (isGenerated(path)) weights.push(generatedWeight);
    return Math.min(...weights);
  };
  const labelOf = (path: string) => {
    if (isGenerated(path) && (!isTest(path) || generatedWeight <= testWeight)) {
      return 'generated code';
    }
    return isTest(path) ? 'test code' : null;
  };
  return { isIgnored, isGenerated, weightOf, labelOf };
}
