import type { PassContext } from '../reflexion/proposal.js';
import type { TypeErrorBaseline } from './type-errors.js';
import { type DroppedProposal, newTypeErrors, type VerifiedPatch } from './verify-proposal.js';

export interface ComposedPatches {
  readonly kept: readonly VerifiedPatch[];
  readonly notKept: readonly DroppedProposal[];
}

/**
 * Each patch was verified alone. Two can still clash: one edits a file the other edits (the
 * second no longer applies), or one stops exporting what the other starts importing. Patches
 * are taken in order, each only if it edits no file an earlier one edits and the project with it
 * and every earlier one adds no type error; the others wait for the next run.
 */
export function composePatches(
  context: PassContext,
  typeErrorsBefore: TypeErrorBaseline,
  verified: readonly VerifiedPatch[],
): ComposedPatches {
  const kept: VerifiedPatch[] = [];
  const notKept: DroppedProposal[] = [];
  const touched = new Set<string>();
  for (const patch of verified) {
    const { proposal } = patch;
    if (proposal.edits.some((edit) => touched.has(edit.path))) {
      notKept.push({
        proposal,
        reason:
          'it edits a file an earlier patch edits: run aureus simplify again once that one is in',
      });
      continue;
    }
    if (kept.length > 0) {
      const together = [...kept.flatMap((earlier) => earlier.proposal.edits), ...proposal.edits];
      const added = newTypeErrors(context, typeErrorsBefore, together);
      if (added.length > 0) {
        notKept.push({
          proposal,
          reason: `with the patches before it, it adds type errors (${added.length}): run aureus simplify again once they are in`,
        });
        continue;
      }
    }
    for (const edit of proposal.edits) touched.add(edit.path);
    kept.push(patch);
  }
  return { kept, notKept };
}
