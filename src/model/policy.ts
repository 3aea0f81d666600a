import type { AUREUSPolicy, Module } from './policy.generated.js';

/** A policy as written in `.aureus/policy.yaml`: everything but `version` may be left out. */
export type PolicyDocument = AUREUSPolicy;

/** Makes every key present, all the way down: the shape of a policy once defaults are filled. */
type Complete<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { readonly [K in keyof T]-?: Complete<Exclude<T[K], undefined>> }
    : T;

/**
 * One entry of `modules`. Its import lists have no default, because an absent list and an
 * empty one say different things (`may_import: []` forbids every other module): they stay
 * optional in the effective policy too.
 */
export type ModuleRule = Readonly<Complete<Pick<Module, 'paths' | 'type_only_allowed'>>> &
  Readonly<Pick<Module, 'may_import' | 'may_not_import'>>;

/** The effective policy: the document with every omitted key set to its built-in default. */
export type Policy = Complete<Omit<PolicyDocument, 'modules'>> & {
  readonly modules: Readonly<Record<string, ModuleRule>>;
};

/** The policy format version this AUREUS reads. */
export const CURRENT_POLICY_VERSION = 1;

/** Ids of the forbidden patterns the critic knows. */
export type ForbiddenPatternId = keyof Policy['forbidden_patterns'];
