import type { Project } from 'ts-morph';

/** The deterministic passes, one module each under passes/. */
export type PassName =
  | 'unused-code'
  | 'static-only-class'
  | 'single-implementation'
  | 'pass-through-wrapper'
  | 'inline-trivial-function'
  | 'duplicate-function'
  | 'early-return';

/**
 * One file's text before and after a proposal, by repository-relative `/` path. `after` is null
 * when the proposal leaves the file with nothing in it: the file is deleted.
 */
export interface FileEdit {
  readonly path: string;
  readonly before: string;
  readonly after: string | null;
}

/** A simplification a pass found: not yet verified, never shown to anyone as it is. */
export interface Proposal {
  readonly pass: PassName;
  /** One line, in the imperative: "Inline `double` into its only caller". */
  readonly title: string;
  /** Where the simplified declaration is: repository-relative path and 1-based line. */
  readonly path: string;
  readonly line: number;
  readonly edits: readonly FileEdit[];
}

export interface PassContext {
  /**
   * The repository's TypeScript/JavaScript project. A pass may edit it while it works out a
   * proposal (captureEdits) but leaves it as it found it.
   */
  readonly project: Project;
  /** Absolute, `/`-separated folder the proposals' paths are relative to. */
  readonly rootDir: string;
  /**
   * Repository-relative paths a pass looks for opportunities in (a change's files, or every
   * file). References are followed across the whole project whatever the scope.
   */
  readonly scope: ReadonlySet<string>;
}

export interface SimplificationPass {
  readonly name: PassName;
  /** The least `simplification.aggressiveness` that runs the pass. */
  readonly level: SimplificationAggressiveness;
  find(context: PassContext): Proposal[];
}

/**
 * `simplification.aggressiveness`: conservative removes dead code only; balanced also inlines and
 * drops single-implementation abstractions; aggressive also merges and restructures.
 */
export type SimplificationAggressiveness = 'conservative' | 'balanced' | 'aggressive';

const ORDER: readonly SimplificationAggressiveness[] = ['conservative', 'balanced', 'aggressive'];

/** Whether a pass of `level` runs under the policy's `setting`. */
export function runsAt(
  level: SimplificationAggressiveness,
  setting: SimplificationAggressiveness,
): boolean {
  return ORDER.indexOf(level) <= ORDER.indexOf(setting);
}
