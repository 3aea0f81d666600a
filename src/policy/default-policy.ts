import { AureusError } from '../model/errors.js';
import { CURRENT_POLICY_VERSION, type Policy } from '../model/policy.js';
import { checkPolicySchema } from './check-policy-schema.js';

/**
 * The built-in policy: the design's budgets, used when a repository has no .aureus/policy.yaml.
 * It is the schema's defaults, so the schema stays the one place they are written.
 */
export function defaultPolicy(): Policy {
  const check = checkPolicySchema({ version: CURRENT_POLICY_VERSION });
  if (!check.valid) {
    throw new AureusError(
      'the built-in default policy does not satisfy its own schema.',
      'report this as a bug in AUREUS.',
    );
  }
  return check.policy;
}
