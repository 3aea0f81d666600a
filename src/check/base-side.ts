import { runCritic } from '../critic/run-critic.js';
import type { FileFacts } from '../model/facts.js';
import type { Finding } from '../model/finding.js';
import type { Policy } from '../model/policy.js';
import { shippedTests } from '../pricing/index.js';
import type { RepositoryAnalysis, UnreadImport } from '../scan/analyze-snapshot.js';
import type { UnreadableFile } from '../scan/repository-source.js';

/**
 * What a check needs of its base once the base is analysed: the facts of the files the change
 * touches, the policy's modules, the critic's findings and what the analysis could not read.
 * Small, and the same for every change on one base commit under one policy, so the CLI keeps it
 * (base-side-cache.ts) and a hook or a re-run on the same commit does not analyse the base again.
 */
export interface BaseSide {
  /** At least the facts of every file the change touches at its base path. */
  readonly facts: ReadonlyMap<string, FileFacts>;
  readonly modules: readonly string[];
  /** The critic's findings on the base, under the base's paths. */
  readonly findings: readonly Finding[];
  readonly unreadable: readonly UnreadableFile[];
  readonly unreadImports: readonly UnreadImport[];
  /** The files named as tests that the base's product runs: its lines were priced as code. */
  readonly shippedTests: ReadonlySet<string>;
}

/** The base side of a whole analysis of the base: the critic runs here. */
export function baseSideOf(analysis: RepositoryAnalysis, policy: Policy): BaseSide {
  return {
    facts: analysis.facts,
    modules: analysis.modules.modules,
    findings: runCritic({ policy, project: analysis }),
    unreadable: analysis.unreadable,
    unreadImports: analysis.unreadImports,
    shippedTests: shippedTests(policy, analysis.graph),
  };
}
