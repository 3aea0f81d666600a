import type { ChangeSourceKind } from './change.js';
import type { CostBreakdown, CostItem, DependencyAddition } from './cost.js';
import type { Finding } from './finding.js';

/**
 * pass: within budget, no new blocking finding. warn: within budget but past the warning line,
 * new findings of severity warn, or growth within a tolerance. block: over budget, a new error
 * finding, or one worsened beyond its rule's growth tolerance.
 * incomplete: something could not be evaluated; never a pass (exit 2, check failure or neutral).
 */
export type Verdict = 'pass' | 'warn' | 'block' | 'incomplete';

/**
 * new: not at the base. worsened: at the base, but further past its limit. baseline: at the
 * base, unchanged or better.
 */
export type FindingStatus = 'new' | 'worsened' | 'baseline';

export interface ReportFinding extends Finding {
  readonly status: FindingStatus;
  /**
   * Whether this finding alone blocks the change: an error that is new, or worsened beyond the
   * rule's growth tolerance.
   */
  readonly blocking: boolean;
  /** How a worsened finding grew, and whether its rule's growth tolerance covers it; else null. */
  readonly growth: FindingGrowth | null;
}

/**
 * A worsened finding's growth. Tolerance is counted from the figure .aureus/baseline.json
 * records, never from the base's: a tolerance renewed at every change would let small changes
 * add up without end, one counted from the baseline runs out.
 */
export interface FindingGrowth {
  /** The measure at the base (the baseline's for a whole-repository check). */
  readonly from: number;
  /** The measure the baseline records for the finding; null when it records none. */
  readonly recorded: number | null;
  /** The rule's growth tolerance in the judging policy (0: none). */
  readonly tolerance: number;
  /** Whether the head's measure stays within recorded + tolerance, so the growth does not block. */
  readonly tolerated: boolean;
}

export type AlternativeKind =
  | 'merge-files'
  | 'use-installed-dependency'
  | 'drop-abstraction'
  | 'class-to-functions'
  | 'split-change'
  | 'raise-budget'
  | 'simplify';

/** A cheaper way to make the change, concrete for this change. */
export interface Alternative {
  readonly kind: AlternativeKind;
  readonly message: string;
  /** Points the alternative would save (or, for raise-budget, the budget needed). */
  readonly points: number | null;
}

/**
 * The core's size at the head beside the budgets that hold it (critic/core-size.ts measures it
 * as the file, LOC and module rules do): kept in the ledger so budget use can be charted over time.
 */
export interface CoreUse {
  readonly loc: number;
  readonly locTarget: number;
  readonly locHard: number;
  readonly files: number;
  readonly filesBudget: number;
  readonly modules: number;
  readonly modulesBudget: number;
}

export interface Report {
  readonly schemaVersion: 1;
  readonly tool: { readonly name: 'aureus'; readonly version: string };
  readonly verdict: Verdict;
  /** Every reason for the verdict, one sentence each. */
  readonly reasons: readonly string[];
  readonly change: {
    readonly source: ChangeSourceKind;
    readonly baseSha: string | null;
    readonly headSha: string | null;
    readonly files: number;
    readonly complete: boolean;
    readonly notes: readonly string[];
  };
  readonly cost: CostBreakdown;
  readonly costItems: readonly CostItem[];
  readonly dependencies: readonly DependencyAddition[];
  readonly budget: {
    readonly warn: number;
    readonly block: number;
    /** block − total: what is left of this change's budget (negative when over). */
    readonly remaining: number;
  };
  readonly findings: readonly ReportFinding[];
  /** The core's size at the head; null where no analysis of the head measured it. */
  readonly core: CoreUse | null;
  readonly alternatives: readonly Alternative[];
  readonly policy: {
    /** Where the policy judging the change came from: `.aureus/policy.yaml@<base sha>` or `built-in`. */
    readonly source: string;
    /** The change edits the policy: reported for a maintainer's approval, never applied to itself. */
    readonly changed: boolean;
    readonly changes: readonly string[];
    /** The changes that loosen the gate: on a pull request they need a maintainer's approval. */
    readonly loosens: readonly string[];
    /** Who approved the loosening for this head commit (maintain or admin permission), or null. */
    readonly approval: {
      readonly by: string;
      readonly accountId: number;
      readonly reason: string;
    } | null;
    /**
     * The policy alone blocks the change: a loosening awaiting approval on this surface, or a
     * new policy file that does not validate. A workflow's `fail-on` never lets this pass.
     */
    readonly blocks: boolean;
  };
}
