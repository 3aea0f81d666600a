import { join, resolve } from 'node:path';
import * as core from '@actions/core';
import { readCommitHistory } from '../git/commit-history.js';
import { readSharedLedgerBranch } from '../git/shared-ledger-branch.js';
import { parseRepositoryName } from '../github/repository-coordinates.js';
import { learnedPolicy } from '../learn/learned-policy.js';
import { renderProposal } from '../learn/render-proposal.js';
import { readPolicySource } from '../memory/policy-file.js';
import { parseSharedLedgerFiles } from '../memory/shared-ledger-entries.js';
import { AureusError, ExitCode } from '../model/errors.js';
import { escapeControls } from '../report/plain-text.js';
import type { ActionSettings } from './action-settings.js';
import { proposeLearnedPolicy } from './learn-pull-request.js';
import { gitRemote } from './run-branch.js';
import { actionClient, required } from './runner-environment.js';

/** A learn run is the repository's own schedule or a maintainer's dispatch, never a change. */
const LEARN_EVENTS = new Set(['schedule', 'workflow_dispatch']);

/**
 * `mode: learn`: what `aureus learn --shared` proposes, from the shared ledger and the history
 * of the default branch, opened as a pull request when `learning.open_pull_request` is on (see
 * learn-pull-request.ts for how often). The proposal is only a proposal: the pull request
 * changes the policy, so AUREUS's own check of it asks for a maintainer.
 */
export async function runLearnMode(
  settings: ActionSettings,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const eventName = required(env, 'GITHUB_EVENT_NAME');
  if (!LEARN_EVENTS.has(eventName))
    throw new AureusError(
      `mode: learn runs on schedule and workflow_dispatch events, and this run is a ${JSON.stringify(eventName)} event.`,
      'run the learn step in a workflow of its own, on: schedule (weekly) and workflow_dispatch.',
    );
  const repository = parseRepositoryName(required(env, 'GITHUB_REPOSITORY'));
  if (repository === undefined)
    throw new AureusError(
      'GITHUB_REPOSITORY is not owner/name.',
      'run AUREUS as a step of a GitHub Actions workflow.',
    );
  const root = resolve(required(env, 'GITHUB_WORKSPACE'), settings.workingDirectory);
  const source = await readPolicySource(join(root, settings.policyPath), settings.policyPath);
  if (source === undefined || !source.policy.learning.open_pull_request) {
    core.info(
      `learning.open_pull_request is off in ${settings.policyPath}: AUREUS opens no learn pull request.`,
    );
    return ExitCode.pass;
  }
  if (settings.token === '')
    throw new AureusError(
      'mode: learn needs a token, and github-token is empty.',
      'give the learn job contents: write and pull-requests: write, and leave github-token at its default.',
    );
  const remote = gitRemote(env, repository, settings.token);
  const branch = await readSharedLedgerBranch(root, 'origin', remote);
  for (const note of branch.notes) core.info(escapeControls(`AUREUS learn: ${note}.`));
  const contents = parseSharedLedgerFiles(branch.files);
  if (!contents.intact) {
    core.error(
      escapeControls(
        `AUREUS learn: the shared ledger does not verify (${contents.problems.length} damaged entries), so no proposal drawn from it is opened. Run aureus ledger verify --shared to see what changed.`,
      ),
    );
    return ExitCode.rejected;
  }
  const history = await readCommitHistory(root);
  const learned = learnedPolicy(
    {
      policy: source.policy,
      lines: contents.entries.map((entry) => ({ ledger: branch.ref, entry })),
      commits: history.commits,
      historyCut: history.cut,
      now: Date.now(),
      windowDays: source.policy.learning.window_days,
    },
    source.text,
    settings.policyPath,
  );
  if (learned.proposal.edits.length === 0) {
    core.info(`AUREUS learn: no change to ${settings.policyPath} to propose; nothing is pushed.`);
    return ExitCode.pass;
  }
  const text = renderProposal(learned.proposal, learned.diff, settings.policyPath);
  const client = actionClient(settings.token, env);
  const said = await proposeLearnedPolicy(client, {
    root,
    repository,
    remote,
    ref: required(env, 'GITHUB_REF'),
    policyPath: settings.policyPath,
    policy: learned.after,
    evidence: text,
    now: Date.now(),
  });
  core.info(escapeControls(said));
  return ExitCode.pass;
}
