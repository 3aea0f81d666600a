import { AureusError } from '../model/errors.js';
import type { GitHubClient } from './github-client.js';
import { MAX_SNAPSHOT_COMMENT_PAGES } from './issue-comments.js';

/**
 * Whether the issue's text changed after the trigger (THREATS row 7): its body, or a person's
 * comment written before the trigger, edited at or after the trigger's time, by anyone (the
 * issue's author needs no write access to edit its body). GitHub's REST API records no time for
 * a body edit; GraphQL's `lastEditedAt` does, for the issue and for each comment.
 *
 * The rule is a refusal, not a rebuild of the old text from the edit history: GitHub's
 * `UserContentEdit.diff` is a rendering for people, not a contract to reconstruct bytes from,
 * and a writer who wants the edit in simply triggers again. Same-second times cannot be ordered,
 * so an edit in the trigger's second counts as later (fail closed). Bots' comments (AUREUS's
 * tracking comment, edited as the run goes) are not in the snapshot and do not count.
 */

/** When the trigger was given, and the trigger comment's id (not an earlier comment) if one. */
export interface EditTrigger {
  readonly at: string;
  readonly commentId?: number | undefined;
}

const QUERY = `query($owner: String!, $repo: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $repo) {
    issue(number: $number) {
      lastEditedAt
      editor { login }
      comments(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { databaseId createdAt lastEditedAt author { __typename login } editor { login } }
      }
    }
  }
}`;

interface CommentNode {
  readonly databaseId: number | null;
  readonly createdAt: string;
  readonly lastEditedAt: string | null;
  readonly author: { readonly __typename: string; readonly login: string } | null;
  readonly editor: { readonly login: string } | null;
}

interface IssuePage {
  readonly lastEditedAt: string | null;
  readonly editor: { readonly login: string } | null;
  readonly comments: {
    readonly pageInfo: { readonly hasNextPage: boolean; readonly endCursor: string | null };
    readonly nodes: readonly (CommentNode | null)[];
  };
}

/**
 * The edit that changed the issue after its trigger, said in words (`its body was edited at … by
 * @…`), or undefined when there is none. A GraphQL error, a token without `issues: read` or an
 * answer past the bound throws: the run is refused with the reason, never run on text read blind.
 */
export async function editAfterTrigger(
  client: GitHubClient,
  where: { readonly owner: string; readonly repo: string; readonly issue_number: number },
  trigger: EditTrigger,
): Promise<string | undefined> {
  const fail = (why: string) =>
    new AureusError(
      `cannot tell whether issue #${where.issue_number} was edited after the trigger: ${why}.`,
      'give the job issues: read (GitHub answers GraphQL with the same token), then start the run again.',
    );
  const since = trigger.at;
  let after: string | null = null;
  let bodyEdit: { readonly at: string; readonly by: string } | undefined;
  const earlier: CommentNode[] = [];
  for (let pages = 0; ; pages++) {
    if (pages >= MAX_SNAPSHOT_COMMENT_PAGES)
      throw fail(
        `it has more than ${MAX_SNAPSHOT_COMMENT_PAGES * 100} comments, more than AUREUS reads`,
      );
    const issue: IssuePage | undefined = await issuePage(client, where, after).catch(
      (error: unknown) => {
        throw fail(
          `GitHub's GraphQL API answered: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
    if (issue === undefined) throw fail('GitHub answered no issue');
    if (pages === 0 && issue.lastEditedAt !== null)
      bodyEdit = { at: issue.lastEditedAt, by: issue.editor?.login ?? 'ghost' };
    for (const node of issue.comments.nodes) {
      if (node === null) continue;
      if (node.databaseId !== trigger.commentId) earlier.push(node);
    }
    const { hasNextPage, endCursor }: IssuePage['comments']['pageInfo'] = issue.comments.pageInfo;
    const last = issue.comments.nodes.at(-1);
    // Comments list oldest first: once a page ends past the trigger, no later one is earlier.
    const past = last != null && last.createdAt > since;
    if (!hasNextPage || endCursor === null || past) break;
    after = endCursor;
  }
  if (bodyEdit !== undefined && bodyEdit.at >= since)
    return `its body was edited at ${bodyEdit.at} by @${bodyEdit.by}`;
  const comment = earlier.find(
    (node) =>
      node.author?.__typename !== 'Bot' &&
      node.createdAt <= since &&
      node.lastEditedAt !== null &&
      node.lastEditedAt >= since,
  );
  if (comment === undefined) return undefined;
  return `comment ${comment.databaseId ?? '(unknown id)'} by @${comment.author?.login ?? 'ghost'}, written before the trigger, was edited at ${comment.lastEditedAt} by @${comment.editor?.login ?? 'ghost'}`;
}

async function issuePage(
  client: GitHubClient,
  where: { readonly owner: string; readonly repo: string; readonly issue_number: number },
  after: string | null,
): Promise<IssuePage | undefined> {
  const data: unknown = await client.graphql(QUERY, {
    owner: where.owner,
    repo: where.repo,
    number: where.issue_number,
    after,
  });
  // GitHub's answer is checked for the shape the check reads, never taken on trust.
  if (typeof data !== 'object' || data === null || !('repository' in data)) return undefined;
  const repository = data.repository;
  if (typeof repository !== 'object' || repository === null || !('issue' in repository))
    return undefined;
  return isIssuePage(repository.issue) ? repository.issue : undefined;
}

function isIssuePage(value: unknown): value is IssuePage {
  if (typeof value !== 'object' || value === null) return false;
  if (!('lastEditedAt' in value) || !('comments' in value)) return false;
  const comments = value.comments;
  return (
    typeof comments === 'object' &&
    comments !== null &&
    'nodes' in comments &&
    Array.isArray(comments.nodes) &&
    'pageInfo' in comments &&
    typeof comments.pageInfo === 'object' &&
    comments.pageInfo !== null
  );
}
