/**
 * Plain snapshots of the double's state for assertions: logins instead of user objects, copies
 * instead of the live records the handlers keep changing.
 */
import type { Annotation, RepositoryState } from './state.js';

/** A test's view of an issue or pull request comment. */
export interface IssueCommentView {
  readonly id: number;
  readonly issueNumber: number;
  readonly body: string;
  readonly user: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface CheckRunView {
  readonly id: number;
  readonly name: string;
  readonly headSha: string;
  readonly status: string;
  readonly conclusion: string | null;
  readonly title: string | null;
  readonly summary: string | null;
  readonly text: string | null;
  readonly annotations: readonly Annotation[];
  /** How many requests (create or update) carried annotations. */
  readonly annotationBatches: number;
}

export interface ReviewView {
  readonly id: number;
  readonly pullNumber: number;
  readonly state: string;
  readonly body: string;
  readonly user: string;
  readonly commentIds: readonly number[];
}

export interface ReviewCommentView {
  readonly id: number;
  readonly pullNumber: number;
  readonly reviewId: number | null;
  readonly path: string;
  readonly line: number | null;
  readonly side: string | null;
  readonly startLine: number | null;
  readonly body: string;
  readonly user: string;
  readonly inReplyTo: number | undefined;
}

/** A test's view of a pull request, one opened through the API included. */
export interface PullRequestView {
  readonly number: number;
  readonly title: string;
  readonly body: string | null;
  readonly draft: boolean;
  readonly baseRef: string;
  readonly headRef: string;
  readonly headSha: string;
  readonly user: string;
}

export interface ReactionView {
  readonly commentId: number;
  readonly content: string;
  readonly user: string;
}

export function issueCommentViews(
  state: RepositoryState,
  issueNumber?: number,
): IssueCommentView[] {
  return [...state.issueComments.values()]
    .filter((comment) => issueNumber === undefined || comment.issueNumber === issueNumber)
    .map((comment) => ({
      id: comment.id,
      issueNumber: comment.issueNumber,
      body: comment.body,
      user: comment.user.login,
      createdAt: comment.createdAt,
      updatedAt: comment.updatedAt,
    }));
}

export function checkRunViews(state: RepositoryState): CheckRunView[] {
  return [...state.checkRuns.values()].map((run) => ({
    id: run.id,
    name: run.name,
    headSha: run.headSha,
    status: run.status,
    conclusion: run.conclusion,
    title: run.output.title,
    summary: run.output.summary,
    text: run.output.text,
    annotations: [...run.output.annotations],
    annotationBatches: run.annotationBatches,
  }));
}

export function reviewViews(state: RepositoryState, pullNumber?: number): ReviewView[] {
  return state.reviews
    .filter((review) => pullNumber === undefined || review.pullNumber === pullNumber)
    .map((review) => ({
      id: review.id,
      pullNumber: review.pullNumber,
      state: review.state,
      body: review.body,
      user: review.user.login,
      commentIds: [...state.reviewComments.values()]
        .filter((comment) => comment.reviewId === review.id)
        .map((comment) => comment.id),
    }));
}

export function reviewCommentViews(
  state: RepositoryState,
  pullNumber?: number,
): ReviewCommentView[] {
  return [...state.reviewComments.values()]
    .filter((comment) => pullNumber === undefined || comment.pullNumber === pullNumber)
    .map((comment) => ({
      id: comment.id,
      pullNumber: comment.pullNumber,
      reviewId: comment.reviewId,
      path: comment.path,
      line: comment.line,
      side: comment.side,
      startLine: comment.startLine,
      body: comment.body,
      user: comment.user.login,
      inReplyTo: comment.inReplyTo,
    }));
}

export function reactionViews(state: RepositoryState): ReactionView[] {
  return state.reactions.map((reaction) => ({
    commentId: reaction.commentId,
    content: reaction.content,
    user: reaction.user.login,
  }));
}
