import type { FileFacts } from '../model/facts.js';

/** What a set of patches does to the code it touches, as the ledger records it. */
export interface SimplificationMetrics {
  /** Logical code lines the patches remove (net). */
  readonly linesRemoved: number;
  /** Interfaces, abstract classes and protocols removed (net). */
  readonly abstractionsRemoved: number;
  /** Sum of the cyclomatic complexity of every function in the measured files. */
  readonly complexityBefore: number;
  readonly complexityAfter: number;
  /** (before − after) / before over lines plus complexity; 0 when there was nothing to measure. */
  readonly reduction: number;
  /** simplification.target_reduction, and whether the reduction reached it. */
  readonly target: number;
  readonly targetMet: boolean;
}

/**
 * Compares the facts of the measured files (the scope reflexion ran on) before and after the
 * patches; a file the patches deleted has no facts after. The reduction weighs size and
 * branching alike, the two things the pricing and the critic charge for.
 */
export function simplificationMetrics(
  before: ReadonlyMap<string, FileFacts>,
  after: ReadonlyMap<string, FileFacts>,
  target: number,
): SimplificationMetrics {
  const total = (facts: ReadonlyMap<string, FileFacts>) => {
    let code = 0;
    let abstractions = 0;
    let complexity = 0;
    for (const file of facts.values()) {
      code += file.loc;
      abstractions += file.abstractions.length;
      for (const fn of file.functions) complexity += fn.complexity;
    }
    return { code, abstractions, complexity };
  };
  const was = total(before);
  const is = total(after);
  const measured = was.code + was.complexity;
  const reduction = measured === 0 ? 0 : (measured - is.code - is.complexity) / measured;
  return {
    linesRemoved: was.code - is.code,
    abstractionsRemoved: was.abstractions - is.abstractions,
    complexityBefore: was.complexity,
    complexityAfter: is.complexity,
    reduction: Math.round(reduction * 1000) / 1000,
    target,
    targetMet: reduction >= target,
  };
}
