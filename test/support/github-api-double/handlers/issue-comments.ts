import {
  actor,
  apiRepoUrl,
  bodyAs,
  characterCount,
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
import { type IssueComment, recordEdit, timestamp } from '../state.js';

/** GitHub refuses comment bodies longer than this many characters. */
export const MAX_COMMENT_CHARACTERS = 65536;

function commentObject(context: HandlerContext, comment: IssueComment): Record<string, unknown> {
  const repo = repoOf(context);
  const api = apiRepoUrl(context);
  // GitHub links comments on a pull request to /pull/N and on an issue to /issues/N.
  const kind = repo.pulls.has(comment.issueNumber) ? 'pull' : 'issues';
  return {
    id: comment.id,
    node_id: nodeId('IssueComment', comment.id),
    url: `${api}/issues/comments/${comment.id}`,
    html_url: `${HTML_URL}/${repo.fullName}/${kind}/${comment.issueNumber}#issuecomment-${comment.id}`,
    body: comment.body,
    user: userObject(context.world.apiUrl, comment.user),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    issue_url: `${api}/issues/${comment.issueNumber}`,
    author_association: 'NONE',
    performed_via_github_app: null,
  };
}

function tooLong(context: HandlerContext, body: string) {
  if (characterCount(body) <= MAX_COMMENT_CHARACTERS) return undefined;
  return validationFailed(
    context,
    'IssueComment',
    'data',
    `Body is too long (maximum is ${MAX_COMMENT_CHARACTERS} characters)`,
    { code: 'unprocessable' },
  );
}

const listComments: Handler = (context) => {
  const repo = repoOf(context);
  const issueNumber = intParam(context, 'issue_number');
  const since = optionalString(context, 'since');
  const comments = [...repo.issueComments.values()]
    .filter((comment) => comment.issueNumber === issueNumber)
    .filter((comment) => since === undefined || Date.parse(comment.updatedAt) >= Date.parse(since))
    .sort((a, b) => a.id - b.id);
  const page = paginate(comments, context.params, context.url, context.world.apiUrl);
  return json(
    200,
    page.items.map((comment) => commentObject(context, comment)),
    page.link === undefined ? undefined : { link: page.link },
  );
};

const createComment: Handler = (context) => {
  const repo = repoOf(context);
  const { body } = bodyAs<{ body: string }>(context);
  const refusal = tooLong(context, body);
  if (refusal !== undefined) return refusal;
  const now = timestamp(context.world.now());
  const comment: IssueComment = {
    id: context.world.ids.take('issueComment'),
    issueNumber: intParam(context, 'issue_number'),
    body,
    user: actor(context),
    createdAt: now,
    updatedAt: now,
  };
  repo.issueComments.set(comment.id, comment);
  // As on GitHub, a new comment moves its issue's updated_at.
  const issue = repo.issues.get(comment.issueNumber);
  if (issue !== undefined) issue.updatedAt = now;
  const object = commentObject(context, comment);
  return json(201, object, { location: String(object.url) });
};

const getComment: Handler = (context) => {
  const comment = repoOf(context).issueComments.get(intParam(context, 'comment_id'));
  return comment === undefined ? notFound(context) : json(200, commentObject(context, comment));
};

const updateComment: Handler = (context) => {
  const comment = repoOf(context).issueComments.get(intParam(context, 'comment_id'));
  if (comment === undefined) return notFound(context);
  const { body } = bodyAs<{ body: string }>(context);
  const refusal = tooLong(context, body);
  if (refusal !== undefined) return refusal;
  comment.body = body;
  comment.updatedAt = timestamp(context.world.now());
  recordEdit(comment, { editedAt: comment.updatedAt, editor: actor(context), diff: body });
  return json(200, commentObject(context, comment));
};

const createReaction: Handler = (context) => {
  const repo = repoOf(context);
  const commentId = intParam(context, 'comment_id');
  if (!repo.issueComments.has(commentId)) return notFound(context);
  const { content } = bodyAs<{ content: string }>(context);
  const user = actor(context);
  const existing = repo.reactions.find(
    (reaction) =>
      reaction.commentId === commentId &&
      reaction.content === content &&
      reaction.user.id === user.id,
  );
  // The same person reacting the same way again gets the first reaction back, with 200.
  const reaction = existing ?? {
    id: context.world.ids.take('reaction'),
    commentId,
    content,
    user,
    createdAt: timestamp(context.world.now()),
  };
  if (existing === undefined) repo.reactions.push(reaction);
  return json(existing === undefined ? 201 : 200, {
    id: reaction.id,
    node_id: nodeId('Reaction', reaction.id),
    user: userObject(context.world.apiUrl, reaction.user),
    content: reaction.content,
    created_at: reaction.createdAt,
  });
};

export const issueCommentHandlers: Record<string, Handler> = {
  'issues/list-comments': listComments,
  'issues/create-comment': createComment,
  'issues/get-comment': getComment,
  'issues/update-comment': updateComment,
  'reactions/create-for-issue-comment': createReaction,
};
