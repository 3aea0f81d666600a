import type { ChangeSourceKind } from '../model/change.js';
import type { ChangeRequest } from './change-request.js';
import { requireWorkTree } from './repository.js';
import { assertSafeRevision, findCommit, findCommitAndParent, firstParentOf } from './revisions.js';
import {
  type HistoryAccess,
  requireCommit,
  requireCommitPair,
  requireMergeBase,
} from './shallow.js';

/** A request turned into commit ids and the `git diff` arguments that compare them. */
export interface ChangeTarget {
  readonly source: ChangeSourceKind;
  readonly baseSha: string | null;
  readonly headSha: string | null;
  /** What follows `git diff <options>`: `[--cached] <base> [<head>]`. */
  readonly diffArgs: readonly string[];
  /** True when the head side is the working tree, so git reports unhashed files as 0000…. */
  readonly headIsWorkTree: boolean;
}

export async function resolveTarget(
  access: HistoryAccess,
  request: ChangeRequest,
): Promise<ChangeTarget> {
  const { repository } = access;
  switch (request.kind) {
    case 'staged':
    case 'worktree': {
      requireWorkTree(repository, request.kind);
      // No commit yet: everything in the index (or tree) is new, compared with the empty tree.
      const head = await findCommit(repository, 'HEAD');
      const staged = request.kind === 'staged';
      return {
        source: request.kind,
        baseSha: head,
        headSha: null,
        diffArgs: [...(staged ? ['--cached'] : []), head ?? repository.emptyTree],
        headIsWorkTree: !staged,
      };
    }
    case 'range': {
      assertSafeRevision(request.base, 'base');
      assertSafeRevision(request.head, 'head');
      const [base, head] = await requireCommitPair(
        access,
        [request.base, 'base'],
        [request.head, 'head'],
      );
      // A pull request shows merge-base..head: what the branch did, not what the base did since.
      // baseSha is then the merge base, the commit the base versions are read from.
      const from = request.threeDot ? await requireMergeBase(access, base, head) : base;
      return {
        source: 'range',
        baseSha: from,
        headSha: head,
        diffArgs: [from, head],
        headIsWorkTree: false,
      };
    }
    case 'commit': {
      assertSafeRevision(request.ref, 'commit');
      // Nearly always present: the commit and its parent's id come from one git process.
      const found = await findCommitAndParent(repository, request.ref);
      const commit = found?.commit ?? (await requireCommit(access, request.ref, 'commit'));
      const parent = found === null ? await firstParentOf(repository, commit) : found.parent;
      const base = parent === null ? null : await requireCommit(access, parent, 'parent');
      return {
        source: 'commit',
        baseSha: base,
        headSha: commit,
        diffArgs: [base ?? repository.emptyTree, commit],
        headIsWorkTree: false,
      };
    }
  }
}
