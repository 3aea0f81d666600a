import type { PolicyApproval } from '../gate/review.js';
import { type Account, livePermission, mayApprovePolicy } from './collaborator-permission.js';
import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

/** The standing approving review that approves a policy loosening, as GitHub holds it. */
export interface ApprovingReview {
  readonly approval: PolicyApproval;
  /** What the reviewer wrote with the approval ('' when nothing). */
  readonly body: string;
}

/**
 * The Action's approval of a policy loosening: an approving review of exactly `headSha` by a
 * person whose live permission is maintain or admin. Each reviewer's latest review that is not
 * a plain comment is their standing one, as GitHub counts it: a later "changes requested" or a
 * dismissal (state DISMISSED) withdraws an approval, and an approval of an older commit does
 * not carry over a push. Permissions are read at run time by account id (THREATS rows 5, 7).
 * Needs `pull-requests: read`.
 */
export async function reviewApproval(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  pullNumber: number,
  headSha: string,
): Promise<PolicyApproval | undefined> {
  return (await approvingReview(client, repository, pullNumber, headSha))?.approval;
}

/** As reviewApproval, with the review's own words (the shared ledger records them). */
export async function approvingReview(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  pullNumber: number,
  headSha: string,
): Promise<ApprovingReview | undefined> {
  for (const review of await standingApprovals(client, repository, pullNumber, headSha)) {
    const permission = await livePermission(client, repository, review.account);
    if (!mayApprovePolicy(permission.role)) continue;
    return {
      approval: {
        by: `@${review.account.login}`,
        accountId: review.account.id,
        reason: `approving review ${review.id} of ${headSha.slice(0, 12)}`,
      },
      body: review.body,
    };
  }
  return undefined;
}

/** A reviewer's standing approval of the head, before any permission is looked up. */
export interface StandingApproval {
  readonly account: Account;
  readonly id: number;
  readonly body: string;
}

/**
 * The approvals of exactly `headSha` that still stand, the newest reviewer first. Each
 * reviewer's latest review that is not a plain comment is their standing one, as GitHub counts
 * it: a later "changes requested" or a dismissal (state DISMISSED) withdraws an approval, and an
 * approval of an older commit does not carry over a push. Who may approve is the caller's rule.
 */
export async function standingApprovals(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  pullNumber: number,
  headSha: string,
): Promise<StandingApproval[]> {
  const standing = new Map<
    number,
    { account: Account; state: string; commit: string | null; id: number; body: string }
  >();
  const pages = client.paginate.iterator(client.rest.pulls.listReviews, {
    owner: repository.owner,
    repo: repository.repo,
    pull_number: pullNumber,
    per_page: 100,
  });
  // GitHub lists reviews oldest first: a later one replaces the reviewer's standing review.
  for await (const page of pages) {
    for (const review of page.data) {
      if (review.user === null || review.state === 'COMMENTED' || review.state === 'PENDING')
        continue;
      standing.set(review.user.id, {
        account: { id: review.user.id, login: review.user.login },
        state: review.state,
        commit: review.commit_id,
        id: review.id,
        body: review.body,
      });
    }
  }
  return [...standing.values()]
    .reverse()
    .filter((review) => review.state === 'APPROVED' && review.commit === headSha)
    .map(({ account, id, body }) => ({ account, id, body }));
}
