import { schema as githubSchema, validate } from '@octokit/graphql-schema';
import {
  buildClientSchema,
  execute,
  type GraphQLError,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  parse,
} from 'graphql';
import { type Identity, satisfies, type TokenGrant } from './auth.js';
import type { Outcome } from './recording.js';
import {
  type ContentEdit,
  type Issue,
  type IssueComment,
  type RepositoryState,
  repositoryKey,
  type World,
} from './state.js';

/**
 * `POST /graphql`: every query is validated against GitHub's published GraphQL schema
 * (`@octokit/graphql-schema`), as REST requests are against the OpenAPI description, and a
 * valid one is executed by graphql-js over that same schema, answered from the double's state.
 * The double answers the part of the graph AUREUS reads: `repository(owner, name)`, its
 * `issue(number)` with `lastEditedAt`, `editor`, `userContentEdits` and `comments` (each with
 * the same fields). A valid query for a field it does not model is answered with an error that
 * names the field, recorded as a double bug, never with a made-up null.
 */

/** What the endpoint answers, for the pipeline to record and send. */
export interface GraphqlAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly outcome: Outcome;
  readonly message?: string;
}

const DOCS = 'https://docs.github.com/graphql';

let executable: GraphQLSchema | undefined;

/** The schema graphql-js executes over: GitHub's, built once per test process. */
function githubGraphqlSchema(): GraphQLSchema {
  executable ??= buildClientSchema(githubSchema.json as Parameters<typeof buildClientSchema>[0]);
  return executable;
}

/** An error GitHub answers with a `type` (FORBIDDEN, NOT_FOUND…): data null at its path. */
class TypedError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

interface Caller {
  readonly world: World;
  readonly grant: TokenGrant;
}

export function answerGraphql(
  world: World,
  grant: TokenGrant | undefined,
  raw: Buffer,
): GraphqlAnswer {
  if (grant === undefined)
    return {
      status: 401,
      body: { message: 'Bad credentials', documentation_url: DOCS },
      outcome: 'unauthorized',
      message: 'Bad credentials',
    };
  let request: { query?: unknown; variables?: unknown; operationName?: unknown };
  try {
    request = JSON.parse(raw.toString('utf8'));
  } catch {
    return {
      status: 400,
      body: { message: 'Problems parsing JSON', documentation_url: DOCS },
      outcome: 'invalid',
      message: 'Problems parsing JSON',
    };
  }
  const query = request.query;
  if (typeof query !== 'string')
    return refusedQuery('A query attribute must be specified and must be a string.');
  let problems: readonly GraphQLError[];
  try {
    problems = validate(query);
  } catch (error) {
    // A syntax error: graphql-tag throws it rather than returning it.
    return refusedQuery(error instanceof Error ? error.message : String(error));
  }
  if (problems.length > 0) return refusedQuery(...problems.map((problem) => problem.message));
  const variables =
    typeof request.variables === 'object' && request.variables !== null
      ? (request.variables as Record<string, unknown>)
      : undefined;
  const caller: Caller = { world, grant };
  const result = execute({
    schema: githubGraphqlSchema(),
    document: parse(query),
    rootValue: {
      repository: (args: { owner: string; name: string }) => repositoryNode(caller, args),
    },
    variableValues: variables,
    fieldResolver,
  });
  if (result instanceof Promise)
    throw new Error('github-api-double: GraphQL resolvers are synchronous');
  const errors = (result.errors ?? []).map(githubError);
  const modelled = errors.every((error) => error.type !== undefined);
  return {
    status: 200,
    body: errors.length === 0 ? { data: result.data } : { data: result.data ?? null, errors },
    outcome: modelled ? 'handled' : 'response-violation',
    ...(errors.length === 0 ? {} : { message: errors.map((error) => error.message).join('; ') }),
  };
}

/** GitHub answers an invalid query 200 with `errors` and no `data`. */
function refusedQuery(...messages: string[]): GraphqlAnswer {
  return {
    status: 200,
    body: { errors: messages.map((message) => ({ message })) },
    outcome: 'invalid',
    message: messages.join('; '),
  };
}

/** GitHub's shape of an execution error: `type`, `path`, `locations`, `message`. */
function githubError(error: GraphQLError): {
  type?: string;
  path?: readonly (string | number)[];
  locations?: readonly { line: number; column: number }[];
  message: string;
} {
  const original = error.originalError;
  return {
    ...(original instanceof TypedError ? { type: original.type } : {}),
    ...(error.path === undefined ? {} : { path: error.path }),
    ...(error.locations === undefined ? {} : { locations: error.locations }),
    message: error.message,
  };
}

/**
 * Reads a field from the double's node: a function is called with the field's arguments; a
 * field the node does not model is an error naming it (the double's gap, not GitHub's null).
 */
const fieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, _context, info) => {
  if (typeof source !== 'object' || source === null || !(info.fieldName in source))
    throw new Error(
      `github-api-double: GraphQL field ${info.parentType.name}.${info.fieldName} is not modelled`,
    );
  const value: unknown = Reflect.get(source, info.fieldName);
  return typeof value === 'function' ? value(args) : value;
};

function repositoryNode(caller: Caller, args: { owner: string; name: string }) {
  const key = repositoryKey(args.owner, args.name);
  const repo = caller.world.repositories.get(key);
  const visible = caller.grant.repositories;
  if (repo === undefined || (visible !== undefined && !visible.has(key)))
    throw new TypedError(
      'NOT_FOUND',
      `Could not resolve to a Repository with the name '${args.owner}/${args.name}'.`,
    );
  return {
    nameWithOwner: repo.fullName,
    issue: (issueArgs: { number: number }) => issueNode(caller, repo, issueArgs.number),
  };
}

function issueNode(caller: Caller, repo: RepositoryState, number: number) {
  if (!satisfies(caller.grant.permissions, { issues: 'read' }))
    throw new TypedError('FORBIDDEN', 'Resource not accessible by integration');
  const issue = repo.issues.get(number);
  if (issue === undefined)
    throw new TypedError(
      'NOT_FOUND',
      `Could not resolve to an Issue with the number of ${number}.`,
    );
  const comments = [...repo.issueComments.values()]
    .filter((comment) => comment.issueNumber === number)
    .sort((a, b) => a.id - b.id);
  return {
    ...contentFields(issue),
    number: issue.number,
    title: issue.title,
    body: issue.body ?? '',
    comments: (page: PageArgs) => connection(comments.map(commentNode), page),
  };
}

function commentNode(comment: IssueComment) {
  return { ...contentFields(comment), databaseId: comment.id, body: comment.body };
}

/** The fields an issue and a comment share (GraphQL's `Comment` interface), edits included. */
function contentFields(content: Issue | IssueComment) {
  const edits = content.edits ?? [];
  const last = edits.at(-1);
  return {
    author: actorNode(content.user),
    createdAt: content.createdAt,
    lastEditedAt: last?.editedAt ?? null,
    editor: last === undefined ? null : actorNode(last.editor),
    // Newest first would be GitHub's display order; the connection lists them oldest first.
    userContentEdits: (page: PageArgs) => connection(edits.map(editNode), page),
  };
}

function editNode(edit: ContentEdit) {
  return {
    editedAt: edit.editedAt,
    editor: actorNode(edit.editor),
    diff: edit.diff,
    deletedAt: null,
  };
}

function actorNode(identity: Identity) {
  return {
    __typename:
      identity.type === 'Bot' ? 'Bot' : identity.type === 'Organization' ? 'Organization' : 'User',
    login: identity.login,
    databaseId: identity.id,
  };
}

/** A connection's arguments; GraphQL passes an explicit `null` (a null variable) as given. */
interface PageArgs {
  readonly first?: number | null;
  readonly last?: number | null;
  readonly after?: string | null;
  readonly before?: string | null;
}

/**
 * A connection over `nodes`, paged by `first`/`after` or `last`/`before` with opaque cursors (the
 * index, base64) as GitHub's are opaque. GitHub requires one of `first` or `last`, at most 100.
 */
function connection<T>(nodes: readonly T[], page: PageArgs) {
  const first = page.first ?? undefined;
  const size = first ?? page.last ?? undefined;
  if (size === undefined)
    throw new TypedError(
      'MISSING_PAGINATION_BOUNDARIES',
      'You must provide a `first` or `last` value to properly paginate the connection.',
    );
  if (size < 0 || size > 100)
    throw new TypedError(
      'EXCESSIVE_PAGINATION',
      `Requesting ${size} records on the connection exceeds the \`first\` limit of 100 records.`,
    );
  const start = page.after == null ? 0 : cursorIndex(page.after) + 1;
  const end = page.before == null ? nodes.length : cursorIndex(page.before);
  const window = nodes.slice(start, Math.max(start, end));
  const taken =
    first !== undefined ? window.slice(0, size) : window.slice(Math.max(0, window.length - size));
  const offset = first !== undefined ? start : start + window.length - taken.length;
  return {
    totalCount: nodes.length,
    nodes: taken,
    pageInfo: {
      hasNextPage: offset + taken.length < nodes.length,
      hasPreviousPage: offset > 0,
      startCursor: taken.length === 0 ? null : cursorOf(offset),
      endCursor: taken.length === 0 ? null : cursorOf(offset + taken.length - 1),
    },
  };
}

function cursorOf(index: number): string {
  return Buffer.from(`cursor:${index}`).toString('base64');
}

function cursorIndex(cursor: string): number {
  const match = /^cursor:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (match?.[1] === undefined)
    throw new TypedError(
      'INVALID_CURSOR_ARGUMENTS',
      `\`${cursor}\` does not appear to be a valid cursor.`,
    );
  return Number(match[1]);
}
