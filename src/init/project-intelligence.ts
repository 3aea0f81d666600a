import type { Policy } from '../model/policy.js';

export type ProjectType = Policy['project']['type'];
export type Maturity = Policy['project']['maturity'];

/** A conclusion and the evidence behind it, worded for the user: every inference carries one. */
export interface Inferred<T> {
  readonly value: T;
  readonly reason: string;
}

export interface LanguageShare {
  readonly language: string;
  /** Code lines; null for a language AUREUS does not analyse (counted by files instead). */
  readonly lines: number | null;
  readonly files: number;
}

export interface CoreLayout {
  /** The `paths.core` globs. */
  readonly globs: readonly string[];
  /** Product source files under them, their code lines and their modules (as the critic counts). */
  readonly files: number;
  readonly loc: number;
  readonly modules: readonly string[];
}

export interface Layering {
  /** Modules by layer, bottom first: each imports only modules of the layers below it. */
  readonly layers: readonly (readonly string[])[];
  /** Modules on an import cycle between modules, or above one: no layer can hold them. */
  readonly tangled: readonly string[];
}

/** What `aureus init` concludes about a project; the policy is generated from it. */
export interface ProjectIntelligence {
  readonly name: Inferred<string>;
  readonly type: Inferred<ProjectType>;
  readonly languages: Inferred<readonly LanguageShare[]>;
  readonly frameworks: Inferred<readonly string[]>;
  readonly testRunner: Inferred<string | null>;
  readonly testCommand: Inferred<readonly string[]>;
  readonly core: Inferred<CoreLayout>;
  readonly layering: Inferred<Layering>;
  /** Distinct recent authors. */
  readonly team: Inferred<number>;
  readonly maturity: Inferred<Maturity>;
}
