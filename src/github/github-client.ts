import { Octokit } from '@octokit/rest';

/** Octokit, as every GitHub adapter of AUREUS receives it. */
export type GitHubClient = Octokit;

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
  return new Octokit({
    auth: settings.token,
    baseUrl: settings.baseUrl.replace(/\/+$/, ''),
    userAgent: settings.userAgent,
    log: { debug: () => {}, info: () => {}, warn, error: warn },
  });
}
