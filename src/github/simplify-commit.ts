import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';
import { statusOf } from './request-error.js';

/**
 * The trailer that marks AUREUS's own simplification commit and names the head it simplified.
 * A run on a head that carries it judges the head but never simplifies it again, so AUREUS's
 * commit cannot start a loop of commits (THREATS row 4).
 */
export const SIMPLIFY_TRAILER = 'Aureus-Simplified';

const SUBJECT = 'aureus: simplify';

/** One file of the commit: its new text (null deletes it) and its git mode, kept as it was. */
export interface SimplifyCommitFile {
  readonly path: string;
  readonly text: string | null;
  readonly mode: string;
}

export type PushOutcome =
  | { readonly kind: 'pushed'; readonly sha: string }
  /** Someone pushed to the branch after the analysed head: the commit would be stale. */
  | { readonly kind: 'branch-moved' };

/** `aureus: simplify (−N lines)`, the patches one per line, and the trailer. */
export function simplifyCommitMessage(
  removedLines: number,
  titles: readonly string[],
  headSha: string,
): string {
  const body = titles.map((title) => `- ${title}`).join('\n');
  return `${SUBJECT} (−${removedLines} lines)\n\n${body}\n\nEvery patch was verified by AUREUS: it applies, adds no type error and lowers the price.\n\n${SIMPLIFY_TRAILER}: ${headSha}\n`;
}

/** Whether a commit message is one AUREUS wrote with simplifyCommitMessage. */
export function isSimplifyCommit(message: string): boolean {
  const trailer = new RegExp(`^${SIMPLIFY_TRAILER}: [0-9a-f]{40}$`, 'm');
  return message.startsWith(SUBJECT) && trailer.test(message);
}

export async function commitMessageOf(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  sha: string,
): Promise<string> {
  const commit = await client.rest.git.getCommit({ ...repository, commit_sha: sha });
  return commit.data.message;
}

/**
 * One commit on top of `headSha` with the files given, pushed to `branch` only if the branch
 * still points at `headSha`: never a force push, never over someone else's newer commit. The
 * check before and GitHub's fast-forward rule on the update together make a second run for the
 * same head (a redelivery, a rerun) push nothing, because the first one moved the branch.
 */
export async function pushSimplifyCommit(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  change: {
    readonly branch: string;
    readonly headSha: string;
    readonly files: readonly SimplifyCommitFile[];
    readonly message: string;
  },
): Promise<PushOutcome> {
  const ref = `heads/${change.branch}`;
  const current = await client.rest.git.getRef({ ...repository, ref });
  if (current.data.object.sha !== change.headSha) return { kind: 'branch-moved' };
  const head = await client.rest.git.getCommit({ ...repository, commit_sha: change.headSha });
  const tree = await client.rest.git.createTree({
    ...repository,
    base_tree: head.data.tree.sha,
    tree: change.files.map((file) =>
      file.text === null
        ? { path: file.path, mode: gitMode(file.mode), type: 'blob' as const, sha: null }
        : { path: file.path, mode: gitMode(file.mode), type: 'blob' as const, content: file.text },
    ),
  });
  const commit = await client.rest.git.createCommit({
    ...repository,
    message: change.message,
    tree: tree.data.sha,
    parents: [change.headSha],
  });
  try {
    await client.rest.git.updateRef({ ...repository, ref, sha: commit.data.sha, force: false });
  } catch (error) {
    // 422 "Update is not a fast forward": the branch moved between the check and the update.
    if (statusOf(error) === 422) return { kind: 'branch-moved' };
    throw error;
  }
  return { kind: 'pushed', sha: commit.data.sha };
}

/** Simplification only rewrites files: an executable keeps its bit, anything else is 100644. */
function gitMode(mode: string): '100644' | '100755' {
  return mode === '100755' ? '100755' : '100644';
}
