/**
 * What a change costs in complexity, by category, in points (weights in the policy's `pricing`).
 * A breakdown, not a number: the gate and the reports say where the points come from. Lines
 * deleted earn credit, so a simplification has a negative `loc` and may have a negative total.
 */
export interface CostBreakdown {
  readonly loc: number;
  readonly dependencies: number;
  readonly abstractions: number;
  readonly security: number;
  readonly files: number;
  readonly modules: number;
  /** Builder tool actions by permission tier; 0 for a change a person made. */
  readonly tool: number;
  readonly total: number;
}

export type CostCategory = Exclude<keyof CostBreakdown, 'total'>;

/** One contribution to the cost: what it is, where, and how many points. */
export interface CostItem {
  readonly category: CostCategory;
  readonly points: number;
  /** The file it comes from; null for repository-wide items (a new module, a dependency). */
  readonly path: string | null;
  /** One sentence: "adds 42 code lines", "new interface Shape", "new dependency left-pad (3 packages)". */
  readonly detail: string;
}

/** A dependency a change adds, priced by the design's formula. */
export interface DependencyAddition {
  readonly name: string;
  /** Manifest that declares it (package.json, requirements.txt, go.mod, pom.xml …). */
  readonly manifest: string;
  /** Packages the lockfile gains with it (itself included); null when no lockfile tells. */
  readonly transitivePackages: number | null;
  /** It, or a package it pulls in, runs an install script (from the lockfile). */
  readonly installScript: boolean;
  readonly points: number;
}

export interface PricedChange {
  readonly cost: CostBreakdown;
  readonly items: readonly CostItem[];
  readonly dependencies: readonly DependencyAddition[];
  /** Anything that could not be priced exactly, one sentence each (e.g. a binary file counted by size). */
  readonly notes: readonly string[];
  /**
   * Files whose contents decide the price but were not read (a source file, manifest or
   * lockfile over the read limit), one sentence each with how to resolve it: the change cannot
   * be judged in full, so the gate makes it `incomplete`.
   */
  readonly unmeasured: readonly string[];
}

/** The categories in the order of CostBreakdown and of `pricing` in the policy: every list of them follows it. */
export const COST_CATEGORIES: readonly CostCategory[] = [
  'loc',
  'dependencies',
  'abstractions',
  'security',
  'files',
  'modules',
  'tool',
];
