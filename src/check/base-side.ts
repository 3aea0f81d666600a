import { type CoreSize, coreSize } from '../critic/core-size.js';
import { runCritic } from '../critic/run-critic.js';
import type { FileFacts } from '../model/facts.js';
import type { Finding } from '../model/finding.js';
import type { Policy } from '../model/policy.js';
import { shippedTests } from '../pricing/index.js';
import type { RepositoryAnalysis, UnreadImport } from '../scan/analyze-snapshot.js';
import type { UnreadableFile } from '../scan/repository-source.js';
import { withNewMarks } from './generated-at-base.js';

/**
 * What a check needs of one side of a change once that side is analysed: the facts of the files
 * the change touches, the policy's modules, the critic's findings on the snapshot, the core's
 * size and what the analysis could not read. Small, and the same for every change on one
 * snapshot under one policy, so the CLI keeps it (base-side-cache.ts): a hook or a re-run on the
 * same commit does not analyse the base again, and a re-run on the same head (the same staged
 * files, a working tree left as it was) does not analyse the head again either.
 */
export interface BaseSide {
  /** At least the facts of every file the change touches at this side's path. */
  readonly facts: ReadonlyMap<string, FileFacts>;
  readonly modules: readonly string[];
  /**
   * The findings of the critic's snapshot rules (runCritic without a change), under this
   * side's paths: the rules that read the change are run on the change (withChangeFindings).
   */
  readonly findings: readonly Finding[];
  readonly unreadable: readonly UnreadableFile[];
  readonly unreadImports: readonly UnreadImport[];
  /** The files named as tests that the side's product runs: its lines were priced as code. */
  readonly shippedTests: ReadonlySet<string>;
  /** The size of the core the budgets hold (coreSize), for the report's core use. */
  readonly core: CoreSize;
}

/**
 * The side of a whole analysis of a snapshot: the critic runs here. `newMarks`: the paths whose
 * generator's mark this change wrote (markedOnlyAtHead), judged as the code they are.
 */
export function baseSideOf(
  whole: RepositoryAnalysis,
  policy: Policy,
  newMarks: ReadonlySet<string> = new Set(),
): BaseSide {
  const analysis = { ...whole, facts: withNewMarks(whole.facts, newMarks) };
  const project = { policy, project: analysis };
  return {
    facts: analysis.facts,
    modules: analysis.modules.modules,
    findings: runCritic(project),
    unreadable: analysis.unreadable,
    unreadImports: analysis.unreadImports,
    shippedTests: shippedTests(policy, analysis.graph),
    core: coreSize(project),
  };
}
