import type { ForbiddenPatternId } from './policy.js';

/** Where a finding is, as lines of one file (1-based, inclusive). */
export interface FindingLocation {
  readonly path: string;
  readonly startLine: number;
  /**
   * The column on `startLine` (1-based, in UTF-16 code units, as editors, GitHub and SARIF
   * count) when the finding is at one place of the line, as a syntax error is.
   */
  readonly startColumn?: number;
  readonly endLine: number;
}

/** A forbidden pattern the critic found in one snapshot of a repository. */
export interface Finding {
  readonly ruleId: ForbiddenPatternId;
  /** The policy's severity for the rule (rules set to `off` are not run). */
  readonly severity: 'error' | 'warn';
  /** What is wrong, with its figures, as one sentence. */
  readonly message: string;
  /** Null for findings about the repository as a whole (module, file and LOC budgets). */
  readonly location: FindingLocation | null;
  /**
   * What the finding is about, stable while code moves: a class or interface name, a cycle's
   * sorted files, `repository` for budgets.
   */
  readonly symbol: string;
  /**
   * Identity across snapshots: a hash of rule, path and symbol, never line numbers, so a finding
   * present at the base commit is recognised at the head and treated as baseline.
   */
  readonly fingerprint: string;
  /** The measured figure and the limit it breaks, when the rule has them; "worsened" compares `measured`. */
  readonly measured: number | null;
  readonly limit: number | null;
  /**
   * The finding's other places, when it spans several files: every other file of an import
   * cycle, at its first import of another member; empty for a finding at one place. Code
   * scanning shows them all.
   */
  readonly related: readonly FindingLocation[];
}

/**
 * A finding as .aureus/baseline.json records it: enough to recognise it (fingerprint, and the
 * rule, path and symbol it is the hash of, to follow a renamed file) and the figure it had.
 * `ruleId` is any text: a baseline written by another version may name a rule this one lacks.
 */
export interface RecordedFinding {
  readonly fingerprint: string;
  readonly ruleId: string;
  readonly path: string | null;
  readonly symbol: string;
  readonly measured: number | null;
}
