import { parsePolicy } from '../policy/parse-policy.js';
import type { LearnInput } from './learn-input.js';
import { type LearnProposal, learnProposal } from './learn-proposal.js';
import { patchPolicyText, policyDiff } from './policy-patch.js';

export interface LearnedPolicy {
  readonly proposal: LearnProposal;
  /** The proposed policy file: the committed text with the edits (unchanged without any; the policy in effect without a file). */
  readonly after: string;
  /** The edits as a unified diff of `shown`; empty without any. */
  readonly diff: string;
}

/**
 * What `aureus learn` proposes for the policy file `before` (null: none yet, shown as `shown`),
 * the same for the CLI and the Action's learn mode. The proposal is a policy a maintainer may
 * commit as it is: one that would not validate is AUREUS's mistake, said as such rather than
 * handed over.
 */
export function learnedPolicy(
  input: LearnInput,
  before: string | null,
  shown: string,
): LearnedPolicy {
  const proposal = learnProposal(input);
  if (proposal.edits.length === 0)
    return { proposal, after: before ?? patchPolicyText(null, []), diff: '' };
  const after = patchPolicyText(before, proposal.edits);
  const check = parsePolicy(after, shown);
  if (!check.ok)
    throw new Error(`the proposed policy does not validate: ${check.problems[0]?.message}`);
  return { proposal, after, diff: policyDiff(shown, before, after) };
}
