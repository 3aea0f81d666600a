import type { CheckedChange } from '../check/check-api-change.js';
import type { GitHubClient } from '../github/github-client.js';
import { replyToSimplifyRequest } from '../github/simplify-review.js';
import { appCacheFolder } from '../memory/cache-dir.js';
import { type MaterializeLimits, materializeHead } from '../simplify/materialize-head.js';
import { simplifyOffThread } from '../simplify/simplify-off-thread.js';
import { reflexionDue, simplifyPullRequest } from '../simplify/simplify-pull-request.js';
import type { AppServices, EvaluationRequest } from './evaluation-request.js';

/** What one pull request's reflexion may cost the App's machine. */
export interface AppReflexionLimits extends MaterializeLimits {
  /** Most lines the pull request's files may hold at the head. */
  readonly maxChangedLines: number;
  /** The worker is stopped after this long. */
  readonly timeoutMs: number;
}

/** Sized for one small machine serving many repositories. */
export const APP_REFLEXION_LIMITS: AppReflexionLimits = {
  maxFiles: 2000,
  maxBytes: 32 * 1024 * 1024,
  maxChangedLines: 5000,
  timeoutMs: 120_000,
};

/**
 * Reflexion on a pull request the App has just judged, as its own job in the repository's lane
 * (it is CPU work: it takes a slot like an analysis). Same delivery as the Action's; the work
 * tree is rebuilt from the API (materialize-head.ts). A head that moved on since the check is
 * left to the check of the newer head. Never throws: what happened goes to the log. After a
 * writer's `/aureus simplify` it runs whatever the triggers say, and when no review carries its
 * answer, a comment on the pull request does.
 */
export async function simplifyInApp(
  client: GitHubClient,
  services: AppServices,
  request: EvaluationRequest,
  checked: CheckedChange,
  appClient: () => Promise<GitHubClient>,
  limits: AppReflexionLimits = APP_REFLEXION_LIMITS,
): Promise<void> {
  const { repository, judged, headSha } = request;
  if (judged.kind !== 'pull') return;
  const requested = request.simplifyRequested === true;
  const coordinates = { owner: repository.owner, repo: repository.repo };
  const answer = async (lines: readonly string[]) => {
    if (requested) await replyToSimplifyRequest(client, coordinates, judged.number, headSha, lines);
  };
  const fields = {
    delivery: request.deliveryId,
    repository: `${repository.owner}/${repository.repo}`,
    headSha,
  };
  try {
    if (!checked.report.change.complete)
      return await answer([
        'The check could not read the whole change (its verdict is incomplete), so there is nothing sound to simplify.',
      ]);
    if (!checked.policy.simplification.enabled)
      return await answer([
        "simplification.enabled is false in the base branch's .aureus/policy.yaml.",
      ]);
    // No request at all for the many changes reflexion is not due on.
    if (!requested && reflexionDue(checked.report, checked.policy) === undefined) return;
    const pull = (await client.rest.pulls.get({ ...coordinates, pull_number: judged.number })).data;
    if (pull.head.sha !== headSha) {
      services.log.info(fields, 'reflexion skipped: the pull request has a newer head');
      return await answer([
        `The pull request has a newer head than ${headSha.slice(0, 7)}: comment again to ask for reflexion on it.`,
      ]);
    }
    const delivery = await simplifyPullRequest({
      client,
      repository: coordinates,
      number: judged.number,
      headSha,
      headRef: pull.head.ref,
      // A deleted fork leaves head.repo null: still not this repository.
      fromFork: pull.head.repo?.id !== pull.base.repo.id,
      pushRefusal: checked.policy.simplification.auto_commit
        ? await pushRefusal(await appClient(), coordinates)
        : undefined,
      workTree: async () => {
        const lines = changedLines(checked.change);
        if (lines > limits.maxChangedLines)
          return `its files hold ${lines} lines, more than the App simplifies (${limits.maxChangedLines}): run the AUREUS Action for simplifications.`;
        return materializeHead(client, coordinates, checked.change, {
          cacheDir: appCacheFolder(services.dataDir),
          limits,
        });
      },
      simplify: (root, policy, only) => simplifyOffThread(root, policy, only, limits.timeoutMs),
      change: checked.change,
      report: checked.report,
      policy: checked.policy,
      requested,
    });
    services.log.info({ ...fields, reflexion: delivery.lines }, 'reflexion done');
    if (!delivery.reviewed) await answer(delivery.lines);
  } catch (error) {
    services.log.error({ ...fields, err: error }, 'reflexion failed');
    // The requester hears that it failed; why is in the App's log, not in a public comment.
    await answer(["Reflexion failed on this head; the App's log says why."]).catch(() => {});
  }
}

/**
 * The App asks for `contents: read` only (app.yml): it pushes simplification commits only where
 * an organisation granted it more. The installation's permissions say so before any write.
 */
async function pushRefusal(
  appClient: GitHubClient,
  repository: { readonly owner: string; readonly repo: string },
): Promise<string | undefined> {
  const installation = await appClient.rest.apps.getRepoInstallation(repository);
  return installation.data.permissions.contents === 'write'
    ? undefined
    : "the App's installation may not push (grant it Contents: write to let it commit)";
}

function changedLines(change: CheckedChange['change']): number {
  let lines = 0;
  for (const file of change.files) {
    const text = file.head?.text;
    if (text !== undefined) lines += text.split('\n').length;
  }
  return lines;
}
