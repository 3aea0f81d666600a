import { escapeMarkdown } from '../report/markdown-escape.js';
import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';
import { statusOf } from './request-error.js';

/** A GitHub suggestion on lines `startLine`–`line` of the head's file (the diff's right side). */
export interface SuggestionComment {
  readonly path: string;
  readonly startLine: number;
  readonly line: number;
  readonly body: string;
}

export interface SimplifyReview {
  readonly pullNumber: number;
  readonly headSha: string;
  readonly body: string;
  readonly comments: readonly SuggestionComment[];
  /** The review's body if GitHub will not place the comments: the suggestions as diffs. */
  readonly bodyWithoutComments: string;
}

/** Hidden in the review body: one simplification review per head, whoever asks again. */
export function simplifyReviewMarker(headSha: string): string {
  return `<!-- aureus:simplify head=${headSha} -->`;
}

/**
 * Whether a bot already reviewed this head with simplifications. Only bots count, so that a
 * person quoting the marker cannot keep the suggestions away.
 */
export async function simplifyReviewExists(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  pullNumber: number,
  headSha: string,
): Promise<boolean> {
  const marker = simplifyReviewMarker(headSha);
  const reviews = await client.paginate(client.rest.pulls.listReviews, {
    ...repository,
    pull_number: pullNumber,
    per_page: 100,
  });
  return reviews.some((review) => review.user?.type === 'Bot' && review.body.includes(marker));
}

/**
 * Posts one COMMENT review on the head with the suggestions on their lines. GitHub refuses a
 * whole review when one comment's lines are not in its diff (its diff can differ from ours at a
 * hunk's edge); the review is then posted again without inline comments, the suggestions shown
 * as diffs in its body, so nothing verified is lost.
 */
export async function postSimplifyReview(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  review: SimplifyReview,
): Promise<{ readonly inline: boolean }> {
  const request = {
    ...repository,
    pull_number: review.pullNumber,
    commit_id: review.headSha,
    event: 'COMMENT' as const,
  };
  if (review.comments.length > 0) {
    try {
      await client.rest.pulls.createReview({
        ...request,
        body: review.body,
        comments: review.comments.map((comment) => ({
          path: comment.path,
          line: comment.line,
          side: 'RIGHT',
          ...(comment.startLine < comment.line
            ? { start_line: comment.startLine, start_side: 'RIGHT' }
            : {}),
          body: comment.body,
        })),
      });
      return { inline: true };
    } catch (error) {
      if (statusOf(error) !== 422) throw error;
    }
  }
  await client.rest.pulls.createReview({ ...request, body: review.bodyWithoutComments });
  return { inline: false };
}

/**
 * The answer to `/aureus simplify` where no review gives it. The lines name the pull request's
 * own paths and symbols, so each is made inert (no mention, link or markup) before it is posted.
 */
export async function replyToSimplifyRequest(
  client: GitHubClient,
  repository: { readonly owner: string; readonly repo: string },
  number: number,
  headSha: string,
  lines: readonly string[],
): Promise<void> {
  const body = [
    `**AUREUS simplify** on ${headSha.slice(0, 7)}:`,
    '',
    ...lines.map((line) => `- ${escapeMarkdown(line)}`),
  ].join('\n');
  await client.rest.issues.createComment({ ...repository, issue_number: number, body });
}
