import type { Probot } from 'probot';

/**
 * A webhook event probot can register a handler for, by its name alone: a manifest subscribes
 * to `pull_request`, never to `pull_request.opened`.
 */
type WebhookEventName = Exclude<
  Extract<Parameters<Probot['on']>[0], string>,
  `${string}.${string}`
>;

/**
 * The webhook events the App subscribes to and registers handlers for. app.yml (the manifest
 * probot registers the App from) lists exactly these; test/bot/app-manifest.test.ts holds the
 * two together.
 */
export const APP_EVENTS = [
  // Opened, synchronized, reopened pull requests: price and check every new head; merged ones
  // may bring the week's learn proposal.
  'pull_request',
  // `checks_requested` from a merge queue: without a check on the group's head the queue
  // stalls (THREATS row 26).
  'merge_group',
  // `rerequested` from the Checks tab: run the check again for that head.
  'check_run',
  // `/aureus …` commands in pull request and issue comments.
  'issue_comment',
  // `labeled` with the builder label: start the builder.
  'issues',
  // Reviews submitted or dismissed on a builder pull request: its check waits for an approval.
  'pull_request_review',
] as const satisfies readonly WebhookEventName[];

export type AppEvent = (typeof APP_EVENTS)[number];

/**
 * The repository permissions the App asks for, and no more (THREATS row 30: minimal App
 * permissions). Not asked for on purpose: `workflows` (an App that cannot edit workflows cannot
 * be turned into a way to run code, THREATS row 11), `administration`, and any write to
 * `contents`.
 */
export const APP_PERMISSIONS = {
  // Create and conclude the AUREUS check run, with its annotations: the server-side gate.
  checks: 'write',
  // Read pull requests and their files; post the sticky ledger comment and review suggestions.
  pull_requests: 'write',
  // Read blobs, trees and the base branch's .aureus/policy.yaml.
  contents: 'read',
  // Answer `/aureus …` commands in issue comments; open the weekly learn proposal (opt-in).
  issues: 'write',
  // Required of every App; also what reads a commenter's live permission (THREATS rule 5).
  metadata: 'read',
  // GitHub sends merge_group events only to Apps that can read merge queues.
  merge_queues: 'read',
  // Dispatch the repository's builder workflow and cancel its run: the App never runs the agent
  // itself, and without `workflows` it cannot change what that workflow does.
  actions: 'write',
} as const satisfies Readonly<Record<string, 'read' | 'write'>>;

export type AppPermission = keyof typeof APP_PERMISSIONS;
