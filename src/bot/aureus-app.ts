import type { ApplicationFunction, Context, Probot } from 'probot';
import { readDefaultBranchPolicy } from '../check/default-branch-policy.js';
import { isBuilderBranch } from '../github/builder-pull-approval.js';
import type { Requester } from '../github/builder-trigger.js';
import { livePermission, mayRunCommands } from '../github/collaborator-permission.js';
import type { GitHubClient } from '../github/github-client.js';
import {
  type IssuePayload,
  readCommentPayload,
  readLabeledPayload,
} from '../github/issue-event-payloads.js';
import { appCacheFolder } from '../memory/cache-dir.js';
import { appIdentityLookup } from './app-identity.js';
import type { AppLog } from './app-log.js';
import { continueBuilder } from './builder/continue-builder.js';
import { cancelBuilder, recordBuilderDecision, startBuilder } from './builder/start-builder.js';
import { createDeliveryMemory } from './delivery-memory.js';
import { type EvaluationOutcome, evaluateChange } from './evaluate-change.js';
import type { AppServices, EvaluationRequest } from './evaluation-request.js';
import {
  type InstallationPayload,
  type RepositoryPayload,
  readCheckRunPayload,
  readClosedPullRequestPayload,
  readMergeGroupPayload,
  readPullRequestPayload,
  readReviewPayload,
} from './event-payloads.js';
import { type BuilderCommand, handleCommand } from './handle-command.js';
import { type AppRepository, judgedOfExternalId } from './judged-change.js';
import { proposeLearnInApp } from './learn-in-app.js';
import { previewCost } from './preview-cost.js';
import { simplifyInApp } from './simplify-in-app.js';
import { createWorkQueue, type QueueOutcome } from './work-queue.js';

export interface AureusAppOptions {
  readonly appId: number;
  /** Caches and ledgers: a folder the App owns. */
  readonly dataDir: string;
  /** Evaluations running at once across repositories (one per repository at most). */
  readonly concurrency: number;
  readonly toolVersion: string;
  /** The check run's name; `AUREUS` unless a deployment runs two Apps side by side. */
  readonly checkName?: string;
  /** The clock for the redelivery memory, in milliseconds. */
  readonly now?: () => number;
}

export interface AureusApp {
  /** The probot application: load it into `aureus serve`'s server or any probot adapter. */
  readonly app: ApplicationFunction;
  /** Resolves once every queued evaluation has finished (tests, load test, graceful stop). */
  idle(): Promise<void>;
}

/** How long a delivery id blocks its redeliveries in memory; the check run guards beyond. */
const DELIVERY_TTL_MS = 24 * 60 * 60 * 1000;
const REMEMBERED_DELIVERIES = 10_000;

/**
 * The App: handler registration and nothing else. Each webhook is answered as soon as its work
 * is queued (GitHub waits 10 s at most, THREATS row 3); the work runs from a queue with one
 * lane per repository, where a newer push of a pull request replaces one still waiting.
 */
export function createAureusApp(options: AureusAppOptions): AureusApp {
  const queue = createWorkQueue({ concurrency: options.concurrency });
  const now = options.now ?? Date.now;
  const deliveries = createDeliveryMemory({
    maxEntries: REMEMBERED_DELIVERIES,
    ttlMs: DELIVERY_TTL_MS,
    now,
  });
  const app: ApplicationFunction = (probot: Probot) => {
    const identity = appIdentityLookup(options.appId, () => probot.auth());
    /**
     * The installation's client, made by `probot.auth`: unlike `context.octokit`, it gives probot's
     * throttling the installation as its key, so GitHub's spacing of writes (one a second, a
     * comment every three) applies per installation, not to every repository the App serves.
     */
    const eventScope = async (
      context: Context,
      installation: InstallationPayload,
    ): Promise<{ client: GitHubClient; services: AppServices }> => {
      const client: GitHubClient =
        installation === null ? context.octokit : await probot.auth(installation.id);
      const services: AppServices = {
        identity: await identity(client),
        checkName: options.checkName ?? 'AUREUS',
        dataDir: options.dataDir,
        toolVersion: options.toolVersion,
        log: context.log,
      };
      return { client, services };
    };
    const schedule = (
      client: GitHubClient,
      appServices: AppServices,
      request: EvaluationRequest,
    ) => {
      const key = `${request.deliveryId}:${request.repository.id}:${request.headSha}:${request.event}`;
      if (!deliveries.claim(key)) {
        appServices.log.info({ delivery: request.deliveryId }, 'redelivery ignored');
        return;
      }
      const coalesce =
        request.trigger === 'event' && request.judged.kind === 'pull'
          ? `pull:${request.judged.number}`
          : key;
      // Reflexion follows a concluded check as a job of its own, queued before the check's job
      // ends so that the queue is never idle in between.
      const evaluateThenSimplify = async (releaseSlot: () => void) => {
        const outcome = await evaluateChange(client, appServices, request, releaseSlot);
        if (outcome.status === 'concluded' && request.judged.kind === 'pull')
          void queue.enqueue(lane(request.repository), `simplify:${coalesce}`, () =>
            simplifyInApp(client, appServices, request, outcome.checked, () => probot.auth()),
          );
        return outcome;
      };
      void queue
        .enqueue(lane(request.repository), coalesce, evaluateThenSimplify)
        .then((outcome) => {
          // A job that threw before it could conclude anything may be redelivered and retried.
          if (outcome.status === 'failed') deliveries.forget(key);
          logOutcome(appServices.log, request, outcome);
        });
    };

    // Each handler reads its payload first (event-payloads.ts): a payload of the wrong shape
    // throws before any API call, and the webhook endpoint answers 400.
    probot.on(
      [
        'pull_request.opened',
        'pull_request.synchronize',
        'pull_request.reopened',
        'pull_request.ready_for_review',
      ],
      async (context) => {
        const payload = readPullRequestPayload(context.payload);
        const { client, services } = await eventScope(context, payload.installation);
        schedule(client, services, {
          repository: appRepository(payload.repository),
          headSha: payload.pull_request.head.sha,
          judged: { kind: 'pull', number: payload.pull_request.number },
          trigger: 'event',
          event: `pull_request.${payload.action}`,
          deliveryId: context.id,
        });
      },
    );
    // A merge into the default branch is when the team's week of changes may be learned from.
    probot.on('pull_request.closed', async (context) => {
      const payload = readClosedPullRequestPayload(context.payload);
      const { repository: from, pull_request: pull } = payload;
      if (!pull.merged || pull.base.ref !== from.default_branch) return;
      const { client, services } = await eventScope(context, payload.installation);
      const repository = appRepository(from);
      void queue
        .enqueue(lane(repository), `learn:${context.id}`, () =>
          proposeLearnInApp({
            client,
            services,
            repository,
            defaultBranch: from.default_branch,
            now: now(),
          }),
        )
        .then((outcome) =>
          services.log.info(
            {
              delivery: context.id,
              outcome: outcome.status === 'done' ? outcome.value : outcome.status,
              ...(outcome.status === 'failed' ? { err: outcome.error } : {}),
            },
            'learn proposal',
          ),
        );
    });
    // Only a builder pull request's verdict depends on reviews: others are not judged again.
    probot.on(
      ['pull_request_review.submitted', 'pull_request_review.dismissed'],
      async (context) => {
        const payload = readReviewPayload(context.payload);
        if (!isBuilderBranch(payload.pull_request.head.ref)) return;
        const { client, services } = await eventScope(context, payload.installation);
        schedule(client, services, {
          repository: appRepository(payload.repository),
          headSha: payload.pull_request.head.sha,
          judged: { kind: 'pull', number: payload.pull_request.number },
          trigger: 'rerun',
          event: `pull_request_review.${payload.action}`,
          deliveryId: context.id,
        });
      },
    );
    probot.on('merge_group.checks_requested', async (context) => {
      const payload = readMergeGroupPayload(context.payload);
      const { client, services } = await eventScope(context, payload.installation);
      schedule(client, services, {
        repository: appRepository(payload.repository),
        headSha: payload.merge_group.head_sha,
        judged: { kind: 'range', baseSha: payload.merge_group.base_sha },
        trigger: 'event',
        event: 'merge_group.checks_requested',
        deliveryId: context.id,
      });
    });
    probot.on('check_run.rerequested', async (context) => {
      const payload = readCheckRunPayload(context.payload);
      const run = payload.check_run;
      // GitHub sends a check run's events to the App that made it; anything else is not ours.
      const judged = judgedOfExternalId(run.external_id);
      if (run.app?.id !== options.appId || judged === undefined) return;
      const { client, services } = await eventScope(context, payload.installation);
      schedule(client, services, {
        repository: appRepository(payload.repository),
        headSha: run.head_sha,
        judged,
        trigger: 'rerun',
        event: 'check_run.rerequested',
        deliveryId: context.id,
      });
    });
    /** Builder triggers run as a job of the repository's lane: one at a time, so one run per issue. */
    const builderJob = (
      client: GitHubClient,
      appServices: AppServices,
      source: BuilderSource,
      command: BuilderCommand,
      requester: Requester,
    ) => {
      const repository = appRepository(source.payload.repository);
      const base = {
        client,
        services: appServices,
        deliveryId: source.deliveryId,
        via: source.via,
        requester,
        repository,
        issue: source.payload.issue,
        now,
      };
      void queue
        .enqueue(lane(repository), `builder:${source.deliveryId}`, async () => {
          if (command.kind === 'cancel') return cancelBuilder(base);
          const policy = await readDefaultBranchPolicy(
            client,
            repository,
            source.payload.repository.default_branch,
            { cacheDir: appCacheFolder(appServices.dataDir) },
          );
          if (command.kind === 'approve-budget')
            return continueBuilder({
              ...base,
              triggerCommentId: source.commentId,
              defaultBranch: source.payload.repository.default_branch,
              amount: command.amount,
              policy,
            });
          return startBuilder({
            ...base,
            triggerCommentId: source.commentId,
            defaultBranch: source.payload.repository.default_branch,
            instructions: command.instructions,
            maxUsd: command.maxUsd,
            maxPoints: command.maxPoints,
            policy,
          });
        })
        .then((outcome) =>
          appServices.log.info(
            {
              delivery: source.deliveryId,
              outcome: outcome.status === 'done' ? outcome.value : outcome.status,
              ...(outcome.status === 'failed' ? { err: outcome.error } : {}),
            },
            'builder trigger',
          ),
        );
    };
    probot.on('issues.labeled', async (context) => {
      const payload = readLabeledPayload(context.payload);
      const { client, services: appServices } = await eventScope(context, payload.installation);
      const sender = payload.sender;
      // Own events and edits never trigger; bots only by id, as for comments (THREATS row 4).
      if (sender.id === appServices.identity.botUserId || payload.label === null) return;
      const repository = appRepository(payload.repository);
      const policy = await readDefaultBranchPolicy(
        client,
        repository,
        payload.repository.default_branch,
        { cacheDir: appCacheFolder(appServices.dataDir) },
      );
      if (payload.label.name !== policy.integrations.app.builder_label) return;
      if (sender.type === 'Bot' && !policy.integrations.app.allowed_bot_ids.includes(sender.id))
        return;
      if (payload.issue.pull_request !== null) return;
      const requester = { id: sender.id, login: sender.login };
      const source: BuilderSource = { payload, deliveryId: context.id, via: 'label' };
      // Whoever added the label, by id, live, now (THREATS row 6): not the issue's author.
      const permission = await livePermission(client, repository, requester);
      if (!mayRunCommands(permission.role)) {
        await recordBuilderDecision(
          { ...source, services: appServices, repository, requester, issue: payload.issue, now },
          'refused',
          `no write access (${permission.role})`,
        );
        return;
      }
      builderJob(client, appServices, source, { kind: 'implement', instructions: '' }, requester);
    });
    probot.on('issue_comment.created', async (context) => {
      const payload = readCommentPayload(context.payload);
      const { client, services: appServices } = await eventScope(context, payload.installation);
      const repository = appRepository(payload.repository);
      const source: BuilderSource = {
        payload,
        deliveryId: context.id,
        via: 'comment',
        commentId: payload.comment.id,
      };
      await handleCommand({
        builder: (command, requester) =>
          builderJob(client, appServices, source, command, requester),
        refuseBuilder: (requester, reason) =>
          recordBuilderDecision(
            { ...source, services: appServices, repository, requester, issue: payload.issue, now },
            'refused',
            reason,
          ),
        client,
        services: appServices,
        deliveryId: context.id,
        payload,
        allowedBotIds: async () =>
          (
            await readDefaultBranchPolicy(client, repository, payload.repository.default_branch, {
              cacheDir: appCacheFolder(appServices.dataDir),
            })
          ).integrations.app.allowed_bot_ids,
        evaluate: (request) => schedule(client, appServices, request),
        preview: (repository, number) =>
          void queue
            .enqueue(lane(repository), `price:${context.id}`, () =>
              previewCost(client, appServices, repository, number),
            )
            .then((outcome) =>
              appServices.log.info({ delivery: context.id, outcome: outcome.status }, 'price'),
            ),
      });
    });
  };
  return { app, idle: () => queue.idle() };
}

/** What a builder trigger came with: the issue and repository as the event showed them. */
interface BuilderSource {
  readonly payload: {
    readonly repository: RepositoryPayload & { readonly default_branch: string };
    readonly issue: IssuePayload;
  };
  readonly deliveryId: string;
  readonly via: 'comment' | 'label';
  /** The trigger comment, for a comment trigger. */
  readonly commentId?: number;
}

function lane(repository: AppRepository): string {
  return String(repository.id);
}

function appRepository(repository: RepositoryPayload): AppRepository {
  return { id: repository.id, owner: repository.owner.login, repo: repository.name };
}

function logOutcome(
  log: AppLog,
  request: EvaluationRequest,
  outcome: QueueOutcome<EvaluationOutcome>,
): void {
  const fields = { delivery: request.deliveryId, repository: request.repository.id };
  if (outcome.status === 'failed')
    log.error({ ...fields, err: outcome.error }, 'evaluation failed');
  else
    log.info(
      { ...fields, outcome: outcome.status === 'done' ? outcome.value.status : outcome.status },
      'evaluation finished',
    );
}
