import { field } from '../model/json.js';
import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';
import { statusOf } from './request-error.js';

/**
 * How many independent approvals AUREUS's check asks of a builder pull request, and why.
 *
 * AUREUS's own rule is two (builder-pull-approval.ts): anyone with write access may push to the
 * builder's branch, and GitHub's API does not say who pushed, so one approval could be the
 * pusher's of their own commits. GitHub closes that hole itself where a ruleset on the base
 * branch requires "approval of the most recent reviewable push" (`require_last_push_approval`):
 * nothing merges until someone other than the last pusher approves. There AUREUS asks for one:
 * an approval by a writer independent of the run (AUREUS's rule) that GitHub also counts as
 * someone other than the pusher serves both, and a pusher's own approval still needs another's
 * before GitHub merges. Only an active ruleset's rule counts (GitHub's branch-rules API lists no
 * rule of a ruleset in `evaluate` or `disabled` enforcement), and only one that requires at
 * least one approval. Classic branch protection's setting of the same name is not read: reading
 * it needs `administration: read`, which the App does not ask for and a workflow's token cannot
 * hold. A lookup that fails (403, 404, any error) leaves AUREUS's own rule: never fewer than two.
 */
export interface ApprovalRequirement {
  readonly approvals: 1 | 2;
  /** What AUREUS read of the base branch's rules, said in the check ('' when nothing to say). */
  readonly basis: string;
}

/** AUREUS's own rule, where GitHub's cannot be relied on. */
export const AUREUS_RULE: ApprovalRequirement = { approvals: 2, basis: '' };

/** Rules read, one page: a rule beyond it is not relied on, which only ever asks for more. */
const RULES_PER_PAGE = 100;

export async function builderApprovalRequirement(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  baseBranch: string,
): Promise<ApprovalRequirement> {
  let rules: readonly unknown[];
  try {
    ({ data: rules } = await client.rest.repos.getBranchRules({
      owner: repository.owner,
      repo: repository.repo,
      branch: baseBranch,
      per_page: RULES_PER_PAGE,
    }));
  } catch (error) {
    const status = statusOf(error);
    if (status === undefined) throw error;
    return {
      ...AUREUS_RULE,
      basis: `AUREUS could not read the rulesets of ${baseBranch} (GitHub answered ${status}), so it keeps its own rule of two.`,
    };
  }
  const rule = rules.find(requiresLastPushApproval);
  if (rule === undefined) return AUREUS_RULE;
  const id = field(rule, 'ruleset_id');
  const source = field(rule, 'ruleset_source');
  const named = `${typeof id === 'number' ? ` ${id}` : ''}${typeof source === 'string' ? ` of ${source}` : ''}`;
  return {
    approvals: 1,
    basis: `the ruleset${named} on ${baseBranch} requires the most recent push to be approved by someone other than its pusher, so one approval serves both.`,
  };
}

/** A ruleset's pull-request rule that GitHub enforces as "someone other than the last pusher". */
function requiresLastPushApproval(rule: unknown): boolean {
  if (field(rule, 'type') !== 'pull_request') return false;
  const count = field(rule, 'parameters', 'required_approving_review_count');
  return (
    field(rule, 'parameters', 'require_last_push_approval') === true &&
    typeof count === 'number' &&
    count >= 1
  );
}
