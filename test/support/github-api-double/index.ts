/**
 * A GitHub REST API double for AUREUS's tests: a real HTTP server on 127.0.0.1 that validates
 * every request against GitHub's OpenAPI description (test/fixtures/github-openapi), enforces
 * fine-grained token permissions, keeps state in memory, reads repositories from real git, and
 * records everything. See README.md in this folder.
 */
import { GitHubApiDouble, type GitHubApiDoubleOptions } from './double.js';

export type { Identity, Permissions } from './auth.js';
export { GITHUB_ACTIONS_BOT } from './auth.js';
export type { GitHubApiDouble, GitHubApiDoubleOptions, IdentityInput, Role } from './double.js';
export { type Fault, secondaryRateLimit } from './faults.js';
export type { Outcome, RecordedRequest } from './recording.js';
export type {
  CheckRunView,
  IssueCommentView,
  PullRequestView,
  ReactionView,
  ReviewCommentView,
  ReviewView,
} from './views.js';

/** Starts a double on a random port; `double.url` is Octokit's `baseUrl`; `close()` when done. */
export function startGitHubApiDouble(
  options: GitHubApiDoubleOptions = {},
): Promise<GitHubApiDouble> {
  return GitHubApiDouble.start(options);
}
