import type { GitHubClient } from './github-client.js';
import type { EarlierComment } from './issue-snapshot.js';

/**
 * Pages of an issue's comments read for the builder's snapshot, 100 a page: the snapshot keeps
 * the newest comments before the trigger, and the listing runs oldest first, so every page up
 * to the trigger is read. An issue with more is refused by name, never cut short in silence.
 */
export const MAX_SNAPSHOT_COMMENT_PAGES = 10;

/** One comment as listed, oldest first; `bot` for an account of type Bot (AUREUS's own too). */
export interface ListedComment extends EarlierComment {
  readonly id: number;
  readonly authorId: number | null;
  readonly bot: boolean;
  /** Edited since it was written: its text now may not be what it said then. */
  readonly edited: boolean;
}

export interface ListedComments {
  readonly comments: readonly ListedComment[];
  /** False when the listing stopped at MAX_SNAPSHOT_COMMENT_PAGES with pages left unread. */
  readonly complete: boolean;
}

/** The issue's comments, oldest first, up to (not including) comment `before` when given. */
export async function listIssueComments(
  client: GitHubClient,
  where: { readonly owner: string; readonly repo: string; readonly issue_number: number },
  before?: number,
): Promise<ListedComments> {
  const comments: ListedComment[] = [];
  let pages = 0;
  for await (const page of client.paginate.iterator(client.rest.issues.listComments, {
    ...where,
    per_page: 100,
  })) {
    for (const comment of page.data) {
      if (before !== undefined && comment.id >= before) return { comments, complete: true };
      comments.push({
        id: comment.id,
        author: comment.user?.login ?? 'ghost',
        authorId: comment.user?.id ?? null,
        association: comment.author_association,
        body: comment.body ?? '',
        bot: comment.user?.type === 'Bot',
        edited: comment.updated_at !== comment.created_at,
      });
    }
    if (++pages >= MAX_SNAPSHOT_COMMENT_PAGES) {
      // The trigger comment not reached yet, or pages left: what lies past them is unknown.
      const more = page.data.length === 100;
      return { comments, complete: !more };
    }
  }
  return { comments, complete: true };
}

/** The comments a snapshot takes: people's, never a bot's nor AUREUS's own. */
export function peoplesComments(listed: readonly ListedComment[]): EarlierComment[] {
  return listed
    .filter((comment) => !comment.bot)
    .map(({ author, association, body }) => ({ author, association, body }));
}
