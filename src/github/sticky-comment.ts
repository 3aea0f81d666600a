import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

export interface StickyCommentTarget extends RepositoryCoordinates {
  readonly issueNumber: number;
}

export type StickyCommentResult =
  | { readonly action: 'created' | 'updated'; readonly id: number }
  | { readonly action: 'unchanged'; readonly id: number };

/**
 * One comment per pull request, edited in place on every push (STYLE 15): the previous one is
 * found by the hidden marker its body starts with. Only comments written by a bot count, so a
 * person quoting the marker never gets their comment overwritten.
 */
export async function upsertStickyComment(
  client: GitHubClient,
  target: StickyCommentTarget,
  marker: string,
  body: string,
): Promise<StickyCommentResult> {
  const previous = await findStickyComment(client, target, marker);
  return writeStickyComment(client, target, previous, body);
}

/** Edits the sticky comment already found (or posts the first one): for callers that read the comments anyway. */
export async function writeStickyComment(
  client: GitHubClient,
  target: StickyCommentTarget,
  previous: { readonly id: number; readonly body: string } | undefined,
  body: string,
): Promise<StickyCommentResult> {
  const { owner, repo, issueNumber } = target;
  if (previous === undefined) {
    const created = await client.rest.issues.createComment({
      owner,
      repo,
      issue_number: issueNumber,
      body,
    });
    return { action: 'created', id: created.data.id };
  }
  if (previous.body === body) return { action: 'unchanged', id: previous.id };
  await client.rest.issues.updateComment({ owner, repo, comment_id: previous.id, body });
  return { action: 'updated', id: previous.id };
}

async function findStickyComment(
  client: GitHubClient,
  target: StickyCommentTarget,
  marker: string,
): Promise<{ id: number; body: string } | undefined> {
  const pages = client.paginate.iterator(client.rest.issues.listComments, {
    owner: target.owner,
    repo: target.repo,
    issue_number: target.issueNumber,
    per_page: 100,
  });
  for await (const page of pages) {
    for (const comment of page.data) {
      const body = comment.body ?? '';
      // The oldest match wins, so a duplicate left by a race is never the one kept current.
      if (comment.user?.type === 'Bot' && body.startsWith(marker)) return { id: comment.id, body };
    }
  }
  return undefined;
}
