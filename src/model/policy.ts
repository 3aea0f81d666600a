import type { AUREUSPolicy } from './policy.generated.js';

/** A policy as written in `.aureus/policy.yaml`: everything but `version` may be left out. */
export type PolicyDocument = AUREUSPolicy;

/** Makes every key present, all the way down: the shape of a policy once defaults are filled. */
type Complete<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { readonly [K in keyof T]-?: Complete<Exclude<T[K], undefined>> }
    : T;

/** The effective policy: the document with every omitted key set to its built-in default. */
export type Policy = Complete<PolicyDocument>;

/** The policy format version this AUREUS reads. */
export const CURRENT_POLICY_VERSION = 1;

/** Ids of the forbidden patterns the critic knows. */
export type ForbiddenPatternId = keyof Policy['forbidden_patterns'];
