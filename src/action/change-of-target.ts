import type { ChangeRequest } from '../git/index.js';
import type { WorkflowTarget } from '../github/workflow-event.js';
import { AureusError } from '../model/errors.js';

/**
 * The change a workflow event asks AUREUS to judge:
 * - pull request: merge-base(base, head)..head, the diff the pull request shows;
 * - push: before..after (the net effect of the push, force pushes included); a new branch is
 *   compared with its merge base on the default branch; a deleted branch has nothing to judge;
 * - merge group: base..head of the queue's merge commit;
 * - workflow_dispatch: the `base` and `head` inputs.
 */
export function changeOfTarget(
  target: WorkflowTarget,
  inputs: { readonly base: string | null; readonly head: string | null; readonly sha: string },
): ChangeRequest | null {
  switch (target.kind) {
    case 'pull-request':
      return { kind: 'range', base: target.baseSha, head: target.headSha, threeDot: true };
    case 'merge-group':
      return { kind: 'range', base: target.baseSha, head: target.headSha };
    case 'push':
      if (target.deleted) return null;
      if (target.before !== null) return { kind: 'range', base: target.before, head: target.after };
      if (target.ref === `refs/heads/${target.defaultBranch}`)
        return { kind: 'commit', ref: target.after };
      return { kind: 'range', base: target.defaultBranch, head: target.after, threeDot: true };
    case 'dispatch':
      if (inputs.base === null)
        throw new AureusError(
          'a workflow_dispatch run needs the revision to compare with.',
          'set the base input (and head, which defaults to the commit of the run).',
        );
      return { kind: 'range', base: inputs.base, head: inputs.head ?? inputs.sha, threeDot: true };
  }
}
