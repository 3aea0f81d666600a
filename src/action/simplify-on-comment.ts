import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkChangeWithInputs } from '../check/check-change.js';
import { runGit } from '../git/git-runner.js';
import { listTrackedFiles } from '../git/index.js';
import { replyToSimplifyRequest } from '../github/simplify-review.js';
import type { WorkflowEvent } from '../github/workflow-event.js';
import { AureusError } from '../model/errors.js';
import { renderText } from '../report/render-text.js';
import { simplifyPullRequest } from '../simplify/simplify-pull-request.js';
import { actionPolicyGate } from './action-policy-gate.js';
import type { CommandContext } from './command-context.js';
import { required } from './runner-environment.js';
import { toolVersion } from './tool-version.js';
import { logUntrusted } from './untrusted-log.js';

const FETCH_TIMEOUT_MS = 120_000;

/**
 * `/aureus simplify` on a pull request, in the Action: the pull request judged again over its
 * head, as its own `pull_request` run judges it (merge base → head, the base's policy), then
 * reflexion run whether or not its triggers say it is due, delivered as the App delivers it (a
 * review with suggestions, a commit or diffs; else a reply saying why nothing came).
 *
 * On `issue_comment` the workspace holds the default branch: the head is fetched from
 * `refs/pull/<n>/head` and checked out in a work tree of its own beside the workspace, read as
 * data (nothing in it runs). The head must be the one GitHub names for the pull request now; a
 * newer push makes the requester ask again rather than get patches for a head they did not see.
 */
export async function simplifyOnComment(context: CommandContext, number: number): Promise<void> {
  const { client, repository, settings, env } = context;
  const { data: pull } = await client.rest.pulls.get({ ...repository, pull_number: number });
  const headSha = pull.head.sha;
  const answer = (lines: readonly string[]) =>
    replyToSimplifyRequest(client, repository, number, headSha, lines);
  const root = resolve(required(env, 'GITHUB_WORKSPACE'), settings.workingDirectory);
  const fetched = await fetchPullHead(root, number);
  if (fetched !== headSha)
    return answer([
      `The pull request has a newer head than ${headSha.slice(0, 7)}: comment again to ask for reflexion on it.`,
    ]);
  const tree = await mkdtemp(join(env.RUNNER_TEMP ?? tmpdir(), 'aureus-pull-'));
  try {
    await runGit(root, ['worktree', 'add', '--detach', '--quiet', tree, headSha]);
    const event: WorkflowEvent = {
      repository,
      target: {
        kind: 'pull-request',
        number,
        baseSha: pull.base.sha,
        headSha,
        baseRef: pull.base.ref,
        headRef: pull.head.ref,
        // A deleted fork leaves head.repo null: still not this repository.
        fromFork: pull.head.repo?.full_name !== pull.base.repo.full_name,
        title: pull.title,
      },
    };
    const checked = await checkChangeWithInputs(
      tree,
      { kind: 'range', base: pull.base.sha, head: headSha, threeDot: true },
      {
        policyPath: settings.policyPath,
        cwd: tree,
        toolVersion: toolVersion(),
        policyGate: actionPolicyGate(event, client),
      },
    );
    logUntrusted(
      (text) => process.stdout.write(text),
      renderText(checked.report, { color: false }),
    );
    if (!checked.report.change.complete)
      return await answer([
        'The check could not read the whole change (its verdict is incomplete), so there is nothing sound to simplify.',
      ]);
    const delivery = await simplifyPullRequest({
      client,
      repository,
      number,
      headSha,
      headRef: pull.head.ref,
      fromFork: event.target.kind === 'pull-request' && event.target.fromFork,
      workTree: async () => {
        const tracked = await listTrackedFiles(tree, headSha);
        const headFiles = new Map(tracked.map((file) => [file.path, file]));
        return { root: tree, headFiles, dispose: async () => {} };
      },
      change: checked.change,
      report: checked.report,
      policy: checked.policy,
      requested: true,
    });
    logUntrusted((text) => process.stdout.write(text), delivery.lines.join('\n'));
    if (!delivery.reviewed) await answer(delivery.lines);
  } catch (error) {
    // The requester hears that it failed; why is in the job's log, not in a public comment.
    await answer(["Reflexion failed on this head; the workflow's log says why."]).catch(() => {});
    throw error;
  } finally {
    await runGit(root, ['worktree', 'remove', '--force', tree]).catch(() => {});
    await rm(tree, { recursive: true, force: true });
  }
}

/** The pull request's head as the remote has it now (`refs/pull/<n>/head`), fetched by commit. */
async function fetchPullHead(root: string, number: number): Promise<string> {
  try {
    await runGit(
      root,
      ['fetch', '--no-tags', '--quiet', '--depth=1', 'origin', `refs/pull/${number}/head`],
      { timeoutMs: FETCH_TIMEOUT_MS },
    );
    const answer = await runGit(root, ['rev-parse', '--verify', 'FETCH_HEAD^{commit}']);
    return answer.stdout.toString('utf8').trim();
  } catch (error) {
    throw new AureusError(
      `cannot fetch the head of pull request #${number} (refs/pull/${number}/head) from origin: ${error instanceof Error ? error.message : String(error)}.`,
      'check out the repository with actions/checkout in this job (its origin and credentials are what AUREUS fetches with).',
    );
  }
}
