import type { BuilderTrigger } from './builder-trigger.js';
import type { GitHubClient } from './github-client.js';
import { listIssueComments, MAX_SNAPSHOT_COMMENT_PAGES } from './issue-comments.js';
import { parseCommand } from './parse-command.js';

/** Pages of an issue's events read, 100 a page: an issue with more is refused, never cut short. */
export const MAX_EVENT_PAGES = 10;

type IssueWhere = { readonly owner: string; readonly repo: string; readonly issue_number: number };

/** A label someone added to the issue, as GitHub's own event records it (events are never deleted). */
export interface LabelEvent {
  readonly id: number;
  readonly label: string;
  readonly actor: { readonly id: number; readonly login: string } | null;
  readonly createdAt: string;
}

/**
 * The issue's `labeled` events, oldest first, and when its title last changed (`renamed`
 * events; GitHub records no event for a body edit); `complete` false past MAX_EVENT_PAGES pages.
 */
export async function labelEvents(
  client: GitHubClient,
  where: IssueWhere,
): Promise<{
  readonly events: readonly LabelEvent[];
  readonly lastRenamedAt: string | undefined;
  readonly complete: boolean;
}> {
  const events: LabelEvent[] = [];
  let lastRenamedAt: string | undefined;
  let pages = 0;
  for await (const page of client.paginate.iterator(client.rest.issues.listEvents, {
    ...where,
    per_page: 100,
  })) {
    for (const event of page.data) {
      if (event.event === 'labeled' && 'label' in event)
        events.push({
          id: event.id,
          label: event.label.name,
          actor: event.actor === null ? null : { id: event.actor.id, login: event.actor.login },
          createdAt: event.created_at,
        });
      if (
        event.event === 'renamed' &&
        (lastRenamedAt === undefined || event.created_at > lastRenamedAt)
      )
        lastRenamedAt = event.created_at;
    }
    if (++pages >= MAX_EVENT_PAGES)
      return { events, lastRenamedAt, complete: page.data.length < 100 };
  }
  return { events, lastRenamedAt, complete: true };
}

/**
 * The newest event of `requesterId` adding `label` to the issue: the trigger a label start names
 * (GitHub's `labeled` webhook does not carry the event's id).
 */
export async function labelTriggerOf(
  client: GitHubClient,
  where: IssueWhere,
  label: string,
  requesterId: number,
): Promise<{ readonly kind: 'label'; readonly id: number } | undefined> {
  const { events } = await labelEvents(client, where);
  const event = events.findLast((each) => each.label === label && each.actor?.id === requesterId);
  return event === undefined ? undefined : { kind: 'label', id: event.id };
}

/**
 * Every account that started the builder on the issue, as GitHub records it: the authors of its
 * `/aureus implement` comments (by account id) and whoever added the builder label — and the
 * person who wrote any comment edited since, since a comment's text now says nothing of what it
 * said when it started a run: a requester who edits the command away stays one. It stands
 * for "the requester" where no record of the run names one (the Action keeps none): none of
 * them approves a builder pull request of that issue. `complete` is false when the issue has
 * more comments or events than are read; the caller then fails closed and names the bound.
 */
export async function builderTriggerers(
  client: GitHubClient,
  where: IssueWhere,
  builderLabel: string,
): Promise<{
  readonly ids: readonly number[];
  /** The issue's triggers with their authors: the comments and label events that start runs. */
  readonly triggers: readonly (BuilderTrigger & { readonly authorId: number })[];
  readonly complete: boolean;
  readonly bound: string;
}> {
  const comments = await listIssueComments(client, where);
  const labels = await labelEvents(client, where);
  const ids = new Set<number>();
  const triggers: (BuilderTrigger & { readonly authorId: number })[] = [];
  for (const comment of comments.comments) {
    if (comment.authorId === null) continue;
    const command = parseCommand(comment.body)?.kind === 'implement';
    if (command || (comment.edited && !comment.bot)) ids.add(comment.authorId);
    // An edited comment still started the run it started (the builder step refused a dispatch
    // naming it once edited, but a run it started before stays its author's).
    if (command || comment.edited)
      triggers.push({ kind: 'comment', id: comment.id, authorId: comment.authorId });
  }
  for (const event of labels.events)
    if (event.label === builderLabel && event.actor !== null) {
      ids.add(event.actor.id);
      triggers.push({ kind: 'label', id: event.id, authorId: event.actor.id });
    }
  return {
    ids: [...ids],
    triggers,
    complete: comments.complete && labels.complete,
    bound: `${MAX_SNAPSHOT_COMMENT_PAGES * 100} comments and ${MAX_EVENT_PAGES * 100} events`,
  };
}
