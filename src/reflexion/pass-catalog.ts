import { duplicateFunctionPass } from './passes/duplicate-function.js';
import { earlyReturnPass } from './passes/early-return.js';
import { inlineTrivialFunctionPass } from './passes/inline-trivial-function.js';
import { passThroughWrapperPass } from './passes/pass-through-wrapper.js';
import { singleImplementationPass } from './passes/single-implementation.js';
import { staticOnlyClassPass } from './passes/static-only-class.js';
import { unusedCodePass } from './passes/unused-code.js';
import {
  type PassContext,
  type Proposal,
  runsAt,
  type SimplificationAggressiveness,
  type SimplificationPass,
} from './proposal.js';

/**
 * Every deterministic pass, in the order their patches are preferred when two edit one file:
 * dead code first (the cheapest to trust), then abstractions, wrappers and inlining, then
 * merges and restructuring. The policy's aggressiveness picks among them.
 */
export const SIMPLIFICATION_PASSES: readonly SimplificationPass[] = [
  unusedCodePass,
  singleImplementationPass,
  staticOnlyClassPass,
  passThroughWrapperPass,
  inlineTrivialFunctionPass,
  duplicateFunctionPass,
  earlyReturnPass,
];

export interface FoundSimplifications {
  readonly proposals: readonly Proposal[];
  /** Passes that threw: their proposals are missing, the others stand. */
  readonly failedPasses: ReadonlyArray<{ readonly pass: string; readonly error: string }>;
}

/**
 * Runs every pass the policy's aggressiveness allows over the context. A pass that throws is
 * reported and the run goes on: one broken pass must not hide what the others found.
 */
export function findSimplifications(
  context: PassContext,
  passes: readonly SimplificationPass[],
  aggressiveness: SimplificationAggressiveness,
): FoundSimplifications {
  const proposals: Proposal[] = [];
  const failedPasses: { pass: string; error: string }[] = [];
  for (const pass of passes) {
    if (!runsAt(pass.level, aggressiveness)) continue;
    try {
      proposals.push(...pass.find(context));
    } catch (error) {
      failedPasses.push({
        pass: pass.name,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { proposals, failedPasses };
}
