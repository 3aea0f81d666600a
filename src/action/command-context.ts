import { readDefaultBranchPolicy } from '../check/default-branch-policy.js';
import type { GitHubClient } from '../github/github-client.js';
import type { CommentPayload, LabeledPayload } from '../github/issue-event-payloads.js';
import type { RepositoryCoordinates } from '../github/repository-coordinates.js';
import type { Policy } from '../model/policy.js';
import type { ActionSettings } from './action-settings.js';

/** What a command event's handlers share: the token's client, the repository, the job's settings. */
export interface CommandContext {
  readonly client: GitHubClient;
  readonly settings: ActionSettings;
  readonly env: NodeJS.ProcessEnv;
  readonly repository: RepositoryCoordinates;
  readonly defaultBranch: string;
  /** The default branch's policy, read over the API once, and only when needed. */
  readonly policy: () => Promise<Policy>;
}

/** The context of one command event, from its payload's repository. */
export function commandContext(
  client: GitHubClient,
  settings: ActionSettings,
  env: NodeJS.ProcessEnv,
  payload: CommentPayload | LabeledPayload,
): CommandContext {
  const repository = { owner: payload.repository.owner.login, repo: payload.repository.name };
  const defaultBranch = payload.repository.default_branch;
  let policy: Promise<Policy> | undefined;
  return {
    client,
    settings,
    env,
    repository,
    defaultBranch,
    policy: () => {
      policy ??= readDefaultBranchPolicy(client, repository, defaultBranch, {
        cacheDir: undefined,
        policyPath: settings.policyPath,
      });
      return policy;
    },
  };
}

/** A comment on the issue or pull request the command came from. */
export async function replyOn(
  context: CommandContext,
  issueNumber: number,
  body: string,
): Promise<void> {
  await context.client.rest.issues.createComment({
    ...context.repository,
    issue_number: issueNumber,
    body,
  });
}
