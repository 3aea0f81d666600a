import {
  actor,
  apiRepoUrl,
  bodyAs,
  characterCount,
  failure,
  type Handler,
  type HandlerContext,
  intParam,
  json,
  notFound,
  optionalString,
  repoOf,
  validationFailed,
} from '../context.js';
import { HTML_URL, nodeId, userObject } from '../github-objects.js';
import { paginate } from '../pagination.js';
import { pullDiff } from '../pull-diff.js';
import { type RequestedLocation, resolveLocation } from '../review-location.js';
import { type PullRequest, type Review, type ReviewComment, timestamp } from '../state.js';
import { MAX_COMMENT_CHARACTERS } from './issue-comments.js';

function reviewCommentObject(
  context: HandlerContext,
  comment: ReviewComment,
): Record<string, unknown> {
  const api = apiRepoUrl(context);
  const url = `${api}/pulls/comments/${comment.id}`;
  const html = `${HTML_URL}/${repoOf(context).fullName}/pull/${comment.pullNumber}#discussion_r${comment.id}`;
  const pullUrl = `${api}/pulls/${comment.pullNumber}`;
  return {
    url,
    pull_request_review_id: comment.reviewId,
    id: comment.id,
    node_id: nodeId('PullRequestReviewComment', comment.id),
    diff_hunk: comment.diffHunk,
    path: comment.path,
    ...(comment.position === null
      ? {}
      : { position: comment.position, original_position: comment.position }),
    commit_id: comment.commitId,
    original_commit_id: comment.commitId,
    ...(comment.inReplyTo === undefined ? {} : { in_reply_to_id: comment.inReplyTo }),
    user: userObject(context.world.apiUrl, comment.user),
    body: comment.body,
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
    html_url: html,
    pull_request_url: pullUrl,
    author_association: 'NONE',
    _links: { self: { href: url }, html: { href: html }, pull_request: { href: pullUrl } },
    start_line: comment.startLine,
    original_start_line: comment.startLine,
    start_side: comment.startSide,
    ...(comment.line === null ? {} : { line: comment.line, original_line: comment.line }),
    ...(comment.side === null ? {} : { side: comment.side }),
    subject_type: comment.subjectType,
  };
}

function reviewObject(context: HandlerContext, review: Review): Record<string, unknown> {
  const api = apiRepoUrl(context);
  const html = `${HTML_URL}/${repoOf(context).fullName}/pull/${review.pullNumber}#pullrequestreview-${review.id}`;
  const pullUrl = `${api}/pulls/${review.pullNumber}`;
  return {
    id: review.id,
    node_id: nodeId('PullRequestReview', review.id),
    user: userObject(context.world.apiUrl, review.user),
    body: review.body,
    state: review.state,
    html_url: html,
    pull_request_url: pullUrl,
    _links: { html: { href: html }, pull_request: { href: pullUrl } },
    ...(review.submittedAt === undefined ? {} : { submitted_at: review.submittedAt }),
    commit_id: review.commitId,
    author_association: 'NONE',
  };
}

interface CommentBody extends RequestedLocation {
  body: string;
  commit_id?: string;
  in_reply_to?: number;
}

/** Places one comment on the pull request's diff, or says why GitHub would refuse it. */
function placeComment(
  context: HandlerContext,
  pull: PullRequest,
  request: CommentBody,
  reviewId: number | null,
): ReviewComment | { field: string; message: string } {
  const repo = repoOf(context);
  if (characterCount(request.body) > MAX_COMMENT_CHARACTERS) {
    return {
      field: 'body',
      message: `Body is too long (maximum is ${MAX_COMMENT_CHARACTERS} characters)`,
    };
  }
  const base = {
    id: context.world.ids.take('reviewComment'),
    pullNumber: pull.number,
    reviewId,
    user: actor(context),
    body: request.body,
    commitId: request.commit_id ?? pull.headSha,
    createdAt: timestamp(context.world.now()),
  };
  if (request.in_reply_to !== undefined) {
    const parent = repo.reviewComments.get(request.in_reply_to);
    if (parent === undefined || parent.pullNumber !== pull.number) {
      return { field: 'in_reply_to', message: 'in_reply_to is not a comment on this pull request' };
    }
    return { ...parent, ...base, inReplyTo: parent.inReplyTo ?? parent.id };
  }
  const resolved = resolveLocation(pullDiff(repo, pull), request);
  if (!resolved.ok) return { field: resolved.field, message: resolved.message };
  return { ...base, ...resolved.location, inReplyTo: undefined };
}

const createReviewComment: Handler = (context) => {
  const repo = repoOf(context);
  const pull = repo.pulls.get(intParam(context, 'pull_number'));
  if (pull === undefined) return notFound(context);
  const request = bodyAs<CommentBody>(context);
  if (request.commit_id !== undefined && repo.store.typeOf(request.commit_id) !== 'commit') {
    return validationFailed(
      context,
      'PullRequestReviewComment',
      'commit_id',
      'commit_id is not part of the pull request',
    );
  }
  const placed = placeComment(context, pull, request, null);
  if (!('id' in placed)) {
    return validationFailed(context, 'PullRequestReviewComment', placed.field, placed.message);
  }
  repo.reviewComments.set(placed.id, placed);
  return json(201, reviewCommentObject(context, placed));
};

const STATE_OF_EVENT: Record<string, Review['state']> = {
  APPROVE: 'APPROVED',
  REQUEST_CHANGES: 'CHANGES_REQUESTED',
  COMMENT: 'COMMENTED',
};

const createReview: Handler = (context) => {
  const repo = repoOf(context);
  const pull = repo.pulls.get(intParam(context, 'pull_number'));
  if (pull === undefined) return notFound(context);
  const request = bodyAs<{
    commit_id?: string;
    body?: string;
    event?: string;
    comments?: CommentBody[];
  }>(context);
  const state =
    request.event === undefined ? 'PENDING' : (STATE_OF_EVENT[request.event] ?? 'PENDING');
  const user = actor(context);
  const unprocessable = (message: string) =>
    failure(context, 422, 'Unprocessable Entity', { errors: [message], invalid: true });
  if (state !== 'PENDING' && state !== 'APPROVED' && (request.body ?? '') === '') {
    if ((request.comments ?? []).length === 0) {
      return unprocessable(`Review Comment is missing a body for a ${request.event} review`);
    }
  }
  if (user.id === pull.user.id && state === 'APPROVED') {
    return unprocessable('Can not approve your own pull request');
  }
  if (user.id === pull.user.id && state === 'CHANGES_REQUESTED') {
    return unprocessable('Can not request changes on your own pull request');
  }
  const commitId = request.commit_id ?? pull.headSha;
  const reviewId = context.world.ids.take('review');
  const comments: ReviewComment[] = [];
  for (const comment of request.comments ?? []) {
    const placed = placeComment(context, pull, { ...comment, commit_id: commitId }, reviewId);
    if (!('id' in placed)) {
      // GitHub refuses the whole review when one of its comments cannot be placed.
      return unprocessable(
        placed.field.endsWith('path') ? 'Path could not be resolved' : 'Line could not be resolved',
      );
    }
    comments.push(placed);
  }
  for (const comment of comments) repo.reviewComments.set(comment.id, comment);
  const review: Review = {
    id: reviewId,
    pullNumber: pull.number,
    user,
    body: request.body ?? '',
    state,
    commitId,
    submittedAt: state === 'PENDING' ? undefined : timestamp(context.world.now()),
  };
  repo.reviews.push(review);
  return json(200, reviewObject(context, review));
};

const listReviewComments: Handler = (context) => {
  const repo = repoOf(context);
  const pullNumber = intParam(context, 'pull_number');
  if (!repo.pulls.has(pullNumber)) return notFound(context);
  const since = optionalString(context, 'since');
  const descending = context.params.direction === 'desc';
  const comments = [...repo.reviewComments.values()]
    .filter((comment) => comment.pullNumber === pullNumber)
    .filter((comment) => since === undefined || Date.parse(comment.createdAt) >= Date.parse(since))
    .sort((a, b) => (descending ? b.id - a.id : a.id - b.id));
  const page = paginate(comments, context.params, context.url, context.world.apiUrl);
  return json(
    200,
    page.items.map((comment) => reviewCommentObject(context, comment)),
    page.link === undefined ? undefined : { link: page.link },
  );
};

/** GitHub lists a pull request's reviews oldest first; pending ones only to their author. */
const listReviews: Handler = (context) => {
  const repo = repoOf(context);
  const pullNumber = intParam(context, 'pull_number');
  if (!repo.pulls.has(pullNumber)) return notFound(context);
  const viewer = actor(context);
  const reviews = repo.reviews.filter(
    (review) =>
      review.pullNumber === pullNumber &&
      (review.state !== 'PENDING' || review.user.id === viewer.id),
  );
  const page = paginate(reviews, context.params, context.url, context.world.apiUrl);
  return json(
    200,
    page.items.map((review) => reviewObject(context, review)),
    page.link === undefined ? undefined : { link: page.link },
  );
};

export const reviewHandlers: Record<string, Handler> = {
  'pulls/create-review': createReview,
  'pulls/list-reviews': listReviews,
  'pulls/create-review-comment': createReviewComment,
  'pulls/list-review-comments': listReviewComments,
};
