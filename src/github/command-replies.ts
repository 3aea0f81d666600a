import type { AureusCommand } from './parse-command.js';

/**
 * The short replies AUREUS posts about its commands. Nothing from the comment is echoed back:
 * an unknown word could carry an @mention or Markdown, so the reply is the same for every
 * unknown command (THREATS rule 8: neutralise what goes out).
 */
export const HELP_REPLY = [
  'AUREUS commands (write, maintain or admin permission on this repository):',
  '',
  '- `/aureus help`: this list.',
  '- `/aureus check`: run the budget check again on the current head.',
  '- `/aureus price`: reply with the cost of the change against its budgets.',
  '- `/aureus simplify`: look for verified simplifications of the change now, even where the',
  "  policy's `simplification.triggers` would not, and deliver them as the policy says.",
  '- `/aureus approve-budget <reason>`: let the current head commit through although it is over',
  '  budget; the reason is recorded in the ledger, and a new push is judged again. On an issue,',
  '  `/aureus approve-budget $N` or `<n>pt` lets its stopped builder run go on with that budget.',
  '- `/aureus approve-policy [reason]`: let the current head commit loosen `.aureus/policy.yaml`',
  '  (maintain or admin permission only); recorded in the ledger, and a new push needs a new approval.',
  '- `/aureus implement [--budget $N] [instructions]` on an issue (or the builder label,',
  '  `aureus:implement` by default): start the builder agent in the',
  '  `.github/workflows/aureus-builder.yml` workflow, when `integrations.app.builder` is true in',
  "  `.aureus/policy.yaml`; `--budget $N` caps its model spend, `--budget <n>pt` its change's points, below the policy's.",
  '- `/aureus cancel` on an issue: stop its builder run.',
].join('\n');

export const UNKNOWN_COMMAND_REPLY = `That is not an AUREUS command.\n\n${HELP_REPLY}`;

export const APPROVE_BUDGET_USAGE_REPLY =
  '`/aureus approve-budget` needs a reason on the same line, for the ledger: ' +
  '`/aureus approve-budget <reason>`.';

export const PULL_REQUESTS_ONLY_REPLY =
  '`/aureus check`, `price`, `simplify`, `approve-budget` and `approve-policy` work on pull requests: comment on the pull request.';

/**
 * The reply to `/aureus approve-policy` from someone with write (or triage…) permission:
 * loosening the policy is a maintainer's decision. Only the role is said, nothing from the comment.
 */
export function approvePolicyRefusedReply(role: string): string {
  return (
    `\`/aureus approve-policy\` needs maintain or admin permission on this repository; the commenter's permission is ${role}. ` +
    'The policy change still blocks: ask a maintainer or an admin to approve it.'
  );
}

export const BUILDER_NOT_ENABLED_REPLY =
  'The builder is not enabled for this repository. To enable it, set ' +
  '`integrations.app.builder: true` in `.aureus/policy.yaml` on the default branch.';

export const IMPLEMENT_USAGE_REPLY =
  "Usage: `/aureus implement [--budget $N | --budget <n>pt] [instructions]`; `$N` is the most the run may spend on its model, in dollars (`$5`, `2.50`), at most the policy's `cost_thresholds.max_usd_per_run`; `<n>pt` the most its change may cost, in complexity points (`30pt`), at most the policy's `budgets.change.block`.";

export const ISSUES_ONLY_REPLY =
  '`/aureus implement` and `/aureus cancel` work on issues: comment on the issue.';

/**
 * The reply a command gets without running anything, or undefined for commands whose answer is
 * their result (check, price, simplify, approve-budget, approve-policy, implement, cancel).
 */
export function immediateReply(command: AureusCommand): string | undefined {
  switch (command.kind) {
    case 'help':
      return HELP_REPLY;
    case 'unknown':
      return UNKNOWN_COMMAND_REPLY;
    case 'usage':
      return command.command === 'implement' ? IMPLEMENT_USAGE_REPLY : APPROVE_BUDGET_USAGE_REPLY;
    case 'implement':
    case 'cancel':
    case 'check':
    case 'price':
    case 'simplify':
    case 'approve-budget':
    case 'approve-policy':
      return undefined;
  }
}
