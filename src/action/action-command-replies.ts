import type { AureusCommand } from '../github/parse-command.js';

/**
 * The reply to a command on a pull request that only the App honours, saying what to use with
 * the Action instead. Nothing from the comment is echoed back (command-replies.ts).
 */
export function actionCannotReply(kind: AureusCommand['kind']): string {
  switch (kind) {
    case 'check':
      return '`/aureus check` is answered by the AUREUS App. With the Action, re-run the AUREUS job of this pull request (its Checks tab, "Re-run jobs") or push a commit.';
    case 'price':
      return "`/aureus price` is answered by the AUREUS App. With the Action, the cost of the change against its budgets is in the AUREUS job's summary and in its sticky comment on this pull request.";
    case 'approve-budget':
      return '`/aureus approve-budget` is answered by the AUREUS App, which records the approval in its ledger; the Action has no such record, so its check stands. Raise the budget in `.aureus/policy.yaml` on the default branch, or install the App.';
    case 'approve-policy':
      return "With the Action, a policy loosening is approved by a maintainer's or an admin's approving review of the pull request's head (the workflow runs on `pull_request_review`), not by `/aureus approve-policy`, which the AUREUS App answers.";
    default:
      return `\`/aureus ${kind}\` is not answered by the Action on a pull request.`;
  }
}

/**
 * `/aureus approve-budget` on an issue: the App continues a stopped builder run from its kept
 * work; the Action does not (it keeps no record of which stop it approved), so it says how to
 * go on with the Action, and where the stopped run's work is.
 */
export const ACTION_NO_CONTINUATION_REPLY =
  "`/aureus approve-budget` on an issue lets a stopped builder run go on in the AUREUS App, which records each stop it continues. The Action does not continue a stopped run: start a new one with a larger budget (`/aureus implement --budget $N` or `--budget <n>pt`); the stopped run's work stays at the ref its tracking comment names.";
