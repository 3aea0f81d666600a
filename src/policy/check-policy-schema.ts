import type { Policy } from '../model/policy.js';
import { validatePolicyDocument as validateGenerated } from './validate-policy.generated.js';

/** One schema violation as ajv reports it. */
export interface SchemaViolation {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message: string;
}

export type SchemaCheck =
  | { readonly valid: true; readonly policy: Policy }
  | { readonly valid: false; readonly violations: readonly SchemaViolation[] };

/**
 * Validates a policy document against schemas/policy.schema.json with the validator compiled at
 * build time. On success the document has been completed in place with every default.
 */
export function checkPolicySchema(document: unknown): SchemaCheck {
  if (validateGenerated(document)) {
    // The validator is the type guard: it accepted the shape and filled every default, which is
    // what Policy describes and what the generated types (all keys optional) cannot express.
    return { valid: true, policy: document as Policy };
  }
  const errors: unknown = validateGenerated.errors;
  return { valid: false, violations: Array.isArray(errors) ? errors.filter(isViolation) : [] };
}

function isViolation(value: unknown): value is SchemaViolation {
  if (typeof value !== 'object' || value === null) return false;
  const record: Record<string, unknown> = { ...value };
  return (
    typeof record.instancePath === 'string' &&
    typeof record.schemaPath === 'string' &&
    typeof record.keyword === 'string' &&
    typeof record.params === 'object' &&
    record.params !== null &&
    typeof record.message === 'string'
  );
}
