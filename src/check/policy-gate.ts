import type { PolicyApproval, PolicyGate } from '../gate/review.js';

/**
 * How a surface treats a change that loosens the policy (gate/review.ts `PolicyGate`), with the
 * way it finds an approval: asked only when the change loosens the policy, so a change that
 * does not costs no request.
 */
export type PolicyGateOption =
  | { readonly kind: 'warn' }
  | {
      readonly kind: 'approval';
      /** How to approve on this surface, said in the blocking reason. */
      readonly how: string;
      /** The approval a maintainer or admin gave for exactly `headSha`, if any. */
      readonly findApproval?: (headSha: string) => Promise<PolicyApproval | undefined>;
    };

/** The gate the core is given: the approval looked up only for a loosening of a known head. */
export async function resolvePolicyGate(
  option: PolicyGateOption,
  loosens: readonly string[],
  headSha: string | null,
): Promise<PolicyGate> {
  if (option.kind === 'warn') return option;
  const gate = { kind: 'approval' as const, how: option.how };
  if (loosens.length === 0 || headSha === null || option.findApproval === undefined) return gate;
  const approval = await option.findApproval(headSha);
  return approval === undefined ? gate : { ...gate, approval };
}
