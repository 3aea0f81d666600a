import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';

/**
 * Octokit with GitHub's recommended throttling and retries: a secondary rate limit or a 5xx is
 * waited out and retried a bounded number of times instead of failing the gate or posting a
 * comment twice (THREATS row 27). Requests that will not get better (4xx) are not retried.
 */
// Annotated as plain Octokit: the plugins change behaviour, not the API AUREUS calls, and
// the inferred plugin type cannot be named in the published declarations.
const RetryingOctokit: typeof Octokit = Octokit.plugin(retry, throttling);

/**
 * The part of Octokit AUREUS calls: the REST methods, pagination and GraphQL (for what REST does
 * not record, such as when an issue's body was edited). Narrower than `Octokit` so
 * that the client probot makes for an App installation (which has no top-level shortcuts) and
 * the Action's own client are the same thing to every adapter.
 */
export type GitHubClient = Pick<Octokit, 'rest' | 'paginate' | 'request' | 'graphql'>;

/** How many times a rate-limited request is tried again before the error is reported. */
const RATE_LIMIT_RETRIES = 2;

export interface GitHubClientSettings {
  readonly token: string;
  /** `GITHUB_API_URL`: https://api.github.com, a GitHub Enterprise Server URL, or a test double. */
  readonly baseUrl: string;
  readonly userAgent: string;
  /** Where Octokit's own warnings go (rate-limit waits, deprecations). */
  readonly warn: (message: string) => void;
}

export function createGitHubClient(settings: GitHubClientSettings): GitHubClient {
  const warn = settings.warn;
  return new RetryingOctokit({
    auth: settings.token,
    baseUrl: settings.baseUrl.replace(/\/+$/, ''),
    userAgent: settings.userAgent,
    log: { debug: () => {}, info: () => {}, warn, error: warn },
    throttle: {
      onRateLimit: (retryAfter: number, options: { method: string; url: string }, _c, count) =>
        retryLimited('rate limit', retryAfter, options, count, warn),
      onSecondaryRateLimit: (
        retryAfter: number,
        options: { method: string; url: string },
        _c,
        count,
      ) => retryLimited('secondary rate limit', retryAfter, options, count, warn),
    },
    retry: { doNotRetry: [400, 401, 403, 404, 409, 410, 422, 451] },
  });
}

function retryLimited(
  kind: string,
  retryAfter: number,
  options: { method: string; url: string },
  count: number,
  warn: (message: string) => void,
): boolean {
  if (count >= RATE_LIMIT_RETRIES) return false;
  warn(`GitHub ${kind} on ${options.method} ${options.url}: retrying in ${retryAfter} s.`);
  return true;
}
