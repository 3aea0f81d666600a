import type { Identity, TokenGrant } from './auth.js';
import type { Operation } from './fixture.js';
import { type AppInfo, botIdentityOf, type RepositoryState, type World } from './state.js';

/** What a handler answers; the server adds the headers every GitHub response carries. */
export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * GitHub's own validation refused the request (a 422 "Invalid request" that the schema alone
   * cannot express, such as a check run completed without a conclusion): recorded as invalid.
   */
  readonly invalid?: boolean;
  /** Refused for lack of a permission the schema-level table cannot express: recorded as forbidden. */
  readonly forbidden?: boolean;
}

export interface HandlerContext {
  readonly world: World;
  readonly operation: Operation;
  /** Path and query parameters, typed and defaulted by the schema. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The JSON body, already valid against the operation's schema. */
  readonly body: unknown;
  readonly url: URL;
  /** The installation or personal token, for every operation that is not `app-jwt`. */
  readonly grant: TokenGrant | undefined;
  /** The app whose JWT authenticated an `app-jwt` operation. */
  readonly app: AppInfo | undefined;
  /** The repository named by `{owner}/{repo}`, when the path has them and it exists. */
  readonly repo: RepositoryState | undefined;
}

export type Handler = (context: HandlerContext) => Reply;

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers === undefined ? { status, body } : { status, body, headers };
}

/** GitHub's error body: `{ message, documentation_url, status }`, plus `errors` when given. */
export function failure(
  context: HandlerContext,
  status: number,
  message: string,
  extra: { errors?: unknown[]; invalid?: boolean; forbidden?: boolean } = {},
): Reply {
  return {
    status,
    body: {
      message,
      ...(extra.errors === undefined ? {} : { errors: extra.errors }),
      documentation_url: context.operation.docsUrl ?? 'https://docs.github.com/rest',
      status: String(status),
    },
    ...(extra.invalid === true ? { invalid: true } : {}),
    ...(extra.forbidden === true ? { forbidden: true } : {}),
  };
}

export function notFound(context: HandlerContext): Reply {
  return failure(context, 404, 'Not Found');
}

/** GitHub's "Validation Failed" 422 with one `errors` entry. */
export function validationFailed(
  context: HandlerContext,
  resource: string,
  field: string,
  message: string,
  options: { code?: string; invalid?: boolean } = {},
): Reply {
  return failure(context, 422, 'Validation Failed', {
    errors: [{ resource, code: options.code ?? 'custom', field, message }],
    invalid: options.invalid ?? true,
  });
}

export function stringParam(context: HandlerContext, name: string): string {
  const value = context.params[name];
  if (typeof value !== 'string') throw new Error(`github-api-double: no string parameter ${name}`);
  return value;
}

export function intParam(context: HandlerContext, name: string): number {
  const value = context.params[name];
  if (typeof value !== 'number') throw new Error(`github-api-double: no integer parameter ${name}`);
  return value;
}

export function optionalString(context: HandlerContext, name: string): string | undefined {
  const value = context.params[name];
  return typeof value === 'string' ? value : undefined;
}

/** The repository of a `/repos/{owner}/{repo}/…` operation; the server has checked it exists. */
export function repoOf(context: HandlerContext): RepositoryState {
  if (context.repo === undefined) throw new Error('github-api-double: operation has no repository');
  return context.repo;
}

/** Who is acting: the token's identity (an app JWT acts as the app's bot). */
export function actor(context: HandlerContext): Identity {
  if (context.grant !== undefined) return context.grant.identity;
  if (context.app !== undefined) return botIdentityOf(context.app);
  throw new Error('github-api-double: unauthenticated handler call');
}

/** The request body as the handler's declared shape; the schema has already checked it. */
export function bodyAs<T>(context: HandlerContext): T {
  return (context.body ?? {}) as T;
}

/** Counts characters as GitHub's limits do (code points, so an emoji is one). */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

export function apiRepoUrl(context: HandlerContext): string {
  return `${context.world.apiUrl}/repos/${repoOf(context).fullName}`;
}
