import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerOf, jwtIssuer, satisfies, type TokenGrant } from './auth.js';
import type { BeforeCalls } from './before-calls.js';
import type { HandlerContext, Reply } from './context.js';
import type { FaultQueue } from './faults.js';
import type { Operation } from './fixture.js';
import { loadPermissionRules } from './fixture.js';
import { answerGraphql } from './graphql.js';
import { actionHandlers } from './handlers/actions.js';
import { appHandlers } from './handlers/apps.js';
import { branchRuleHandlers } from './handlers/branch-rules.js';
import { checkRunHandlers } from './handlers/check-runs.js';
import { contentHandlers } from './handlers/contents.js';
import { gitDataHandlers } from './handlers/git-data.js';
import { issueCommentHandlers } from './handlers/issue-comments.js';
import { issueHandlers } from './handlers/issues.js';
import { pullHandlers } from './handlers/pulls.js';
import { repoHandlers } from './handlers/repos.js';
import { reviewHandlers } from './handlers/reviews.js';
import { userHandlers } from './handlers/users.js';
import type { Outcome, Recorder } from './recording.js';
import type { RouteMatch } from './router.js';
import { type AppInfo, type RepositoryState, repositoryKey, type World } from './state.js';
import { checkRequest, checkResponse } from './validation.js';

const HANDLERS = {
  ...issueCommentHandlers,
  ...checkRunHandlers,
  ...issueHandlers,
  ...pullHandlers,
  ...reviewHandlers,
  ...gitDataHandlers,
  ...contentHandlers,
  ...repoHandlers,
  ...branchRuleHandlers,
  ...appHandlers,
  ...userHandlers,
  ...actionHandlers,
};

export interface PipelineParts {
  readonly world: World;
  readonly route: (method: string, rawPath: string) => RouteMatch | undefined;
  readonly recorder: Recorder;
  readonly faults: FaultQueue;
  readonly beforeCalls: BeforeCalls;
  readonly strictResponses: boolean;
}

interface Answer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly outcome: Outcome;
  readonly message?: string;
}

let requestCounter = 0;

/** Headers every GitHub REST response carries; the rate-limit ones keep Octokit's plugins calm. */
function commonHeaders(now: Date): Record<string, string> {
  requestCounter += 1;
  return {
    'content-type': 'application/json; charset=utf-8',
    'x-github-media-type': 'github.v3; format=json',
    'x-github-api-version-selected': '2022-11-28',
    'x-github-request-id': `D0B1:${requestCounter.toString(16).toUpperCase()}`,
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '4999',
    'x-ratelimit-reset': String(Math.floor(now.getTime() / 1000) + 3600),
    'x-ratelimit-used': '1',
    'x-ratelimit-resource': 'core',
  };
}

function errorBody(operation: Operation | undefined, status: number, message: string) {
  return {
    message,
    documentation_url: operation?.docsUrl ?? 'https://docs.github.com/rest',
    status: String(status),
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

function firstValues(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of params) if (!(name in out)) out[name] = value;
  return out;
}

/** A refusal's message with its `errors` entries, for the recording. */
function describeRefusal(body: unknown): string {
  if (typeof body !== 'object' || body === null) return String(body);
  const { message, errors } = body as { message?: unknown; errors?: unknown };
  const details = Array.isArray(errors)
    ? errors.map((error) =>
        typeof error === 'object' && error !== null && 'message' in error
          ? String(error.message)
          : String(error),
      )
    : [];
  return [String(message), ...details].join(': ');
}

/** The app whose JWT this is, when the token is one (its signature is not checked). */
function appOfJwt(world: World, token: string): AppInfo | undefined {
  const issuer = jwtIssuer(token);
  if (issuer === undefined) return undefined;
  return [...world.apps.values()].find(
    (app) => String(app.id) === issuer || app.clientId === issuer,
  );
}

function refusal(
  operation: Operation | undefined,
  status: number,
  outcome: Outcome,
  message: string,
  detail = message,
): Answer {
  return { status, body: errorBody(operation, status, message), outcome, message: detail };
}

interface Caller {
  readonly grant: TokenGrant | undefined;
  readonly app: AppInfo | undefined;
}

/** Who is calling, and whether they may call this operation: 401 and 403 like GitHub. */
function authorize(
  world: World,
  operation: Operation,
  token: string | undefined,
  hadAuthorization: boolean,
): Caller | Answer {
  const rule = loadPermissionRules().get(operation.operationId);
  if (rule === undefined)
    throw new Error(`permissions.json has no rule for ${operation.operationId}`);
  if (token === undefined) {
    const message = hadAuthorization ? 'Bad credentials' : 'Requires authentication';
    return refusal(operation, 401, 'unauthorized', message);
  }
  const grant = world.tokens.get(token);
  const app = grant === undefined ? appOfJwt(world, token) : undefined;
  if (grant === undefined && app === undefined) {
    return refusal(operation, 401, 'unauthorized', 'Bad credentials');
  }
  if (rule === 'app-jwt') {
    return app === undefined
      ? refusal(operation, 401, 'unauthorized', 'A JSON web token could not be decoded')
      : { grant, app };
  }
  if (grant === undefined || !satisfies(grant.permissions, rule)) {
    const message = 'Resource not accessible by integration';
    return refusal(
      operation,
      403,
      'forbidden',
      message,
      `${message} (needs ${JSON.stringify(rule)})`,
    );
  }
  return { grant, app };
}

/** The repository of `/repos/{owner}/{repo}/…`; a token limited to others does not see it. */
function findRepository(
  world: World,
  operation: Operation,
  pathParams: Readonly<Record<string, string>>,
  caller: Caller,
): { repo: RepositoryState | undefined } | Answer {
  const { owner, repo: name } = pathParams;
  // App-JWT operations name a repository only to look up an installation.
  if (owner === undefined || name === undefined || caller.app !== undefined)
    return { repo: undefined };
  const key = repositoryKey(owner, name);
  const repo = world.repositories.get(key);
  if (repo === undefined) {
    return refusal(operation, 404, 'handled', 'Not Found', `repository ${key} was never added`);
  }
  const visible = caller.grant?.repositories;
  if (visible !== undefined && !visible.has(key)) {
    return refusal(
      operation,
      404,
      'forbidden',
      'Not Found',
      `token is limited to ${[...visible].join(', ')}`,
    );
  }
  return { repo };
}

/** Runs the handler and, with `strictResponses`, holds its answer to the response schema. */
function answerWith(parts: PipelineParts, context: HandlerContext): Answer {
  const { operation } = context;
  const handler = HANDLERS[operation.operationId];
  if (handler === undefined) throw new Error(`no handler for ${operation.operationId}`);
  const reply: Reply = handler(context);
  if (parts.strictResponses && reply.status < 300) {
    const violation = checkResponse(operation, reply.status, reply.body);
    if (violation !== undefined) {
      const text = `github-api-double: its ${reply.status} answer to ${operation.operationId} does not match GitHub's schema: ${violation}`;
      return refusal(operation, 500, 'response-violation', text);
    }
  }
  const outcome: Outcome = reply.invalid ? 'invalid' : reply.forbidden ? 'forbidden' : 'handled';
  return {
    status: reply.status,
    body: reply.body,
    ...(reply.headers === undefined ? {} : { headers: reply.headers }),
    outcome,
    ...(outcome === 'handled' ? {} : { message: describeRefusal(reply.body) }),
  };
}

function isAnswer(value: object): value is Answer {
  return 'outcome' in value;
}

/**
 * Decides the answer to one request: route, parse and validate (so an invalid request is caught
 * whatever the token), authenticate, authorise, find the repository, then serve a queued fault
 * or the handler.
 */
function decide(
  parts: PipelineParts,
  method: string,
  url: URL,
  match: RouteMatch | undefined,
  raw: Buffer,
  token: string | undefined,
  hadAuthorization: boolean,
): Answer {
  const { world } = parts;
  if (match === undefined) {
    const detail = `no operation in the fixture for ${method} ${url.pathname}`;
    return refusal(undefined, 404, 'unexpected', 'Not Found', detail);
  }
  const { operation, pathParams } = match;
  let body: unknown;
  try {
    body = raw.length === 0 ? undefined : JSON.parse(raw.toString('utf8'));
  } catch {
    return refusal(operation, 400, 'invalid', 'Problems parsing JSON');
  }
  const checked = checkRequest(operation, pathParams, firstValues(url.searchParams), body);
  if (!checked.ok) {
    return refusal(operation, 422, 'invalid', `Invalid request.\n\n${checked.problems.join('\n')}`);
  }
  const caller = authorize(world, operation, token, hadAuthorization);
  if (isAnswer(caller)) return caller;
  const found = findRepository(world, operation, pathParams, caller);
  if (isAnswer(found)) return found;
  const fault = parts.faults.take(operation.operationId);
  if (fault !== undefined) return { ...fault, outcome: 'injected' };
  return answerWith(parts, {
    world,
    operation,
    params: checked.params,
    body,
    url,
    grant: caller.grant,
    app: caller.app,
    repo: found.repo,
  });
}

/** Handles one HTTP request end to end and records it before answering. */
export async function serve(
  parts: PipelineParts,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const raw = await readBody(request);
  const method = (request.method ?? 'GET').toUpperCase();
  const url = new URL(request.url ?? '/', parts.world.apiUrl);
  const authorization = request.headers.authorization;
  const token = bearerOf(authorization);
  if (method === 'POST' && url.pathname === '/graphql')
    return serveGraphql(parts, raw, token, response);
  const match = parts.route(method, url.pathname);
  const before =
    match === undefined ? undefined : parts.beforeCalls.take(match.operation.operationId);
  if (before !== undefined) await before();
  let answer: Answer;
  try {
    answer = decide(parts, method, url, match, raw, token, authorization !== undefined);
  } catch (error) {
    const message = `github-api-double failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    answer = {
      status: 500,
      body: errorBody(match?.operation, 500, message),
      outcome: 'response-violation',
      message,
    };
  }
  let body: unknown;
  if (raw.length > 0) {
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      body = raw.toString('utf8');
    }
  }
  parts.recorder.add({
    method,
    path: url.pathname,
    operationId: match?.operation.operationId,
    query: firstValues(url.searchParams),
    body,
    token,
    status: answer.status,
    outcome: answer.outcome,
    ...(answer.message === undefined ? {} : { message: answer.message }),
  });
  const headers = { ...commonHeaders(parts.world.now()), ...answer.headers };
  response.writeHead(answer.status, headers);
  response.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
}

/**
 * `POST /graphql`, outside the OpenAPI description: validated against GitHub's GraphQL schema
 * and answered from the same state (graphql.ts), recorded as operation `graphql`. A fault
 * queued with `failNext('graphql', …)` answers it as for a REST operation.
 */
function serveGraphql(
  parts: PipelineParts,
  raw: Buffer,
  token: string | undefined,
  response: ServerResponse,
): void {
  const grant = token === undefined ? undefined : parts.world.tokens.get(token);
  const fault = grant === undefined ? undefined : parts.faults.take('graphql');
  let answer: Answer;
  try {
    answer =
      fault === undefined
        ? answerGraphql(parts.world, grant, raw)
        : { ...fault, outcome: 'injected' };
  } catch (error) {
    const message = `github-api-double failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    answer = { status: 500, body: { message }, outcome: 'response-violation', message };
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    body = raw.toString('utf8');
  }
  parts.recorder.add({
    method: 'POST',
    path: '/graphql',
    operationId: 'graphql',
    query: {},
    body,
    token,
    status: answer.status,
    outcome: answer.outcome,
    ...(answer.message === undefined ? {} : { message: answer.message }),
  });
  response.writeHead(answer.status, {
    ...commonHeaders(parts.world.now()),
    'x-ratelimit-resource': 'graphql',
    ...answer.headers,
  });
  response.end(JSON.stringify(answer.body));
}
