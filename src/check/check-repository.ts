import { followRecordedRenames } from '../critic/follow-renames.js';
import { runCritic } from '../critic/run-critic.js';
import { review } from '../gate/review.js';
import { renamesSince } from '../git/index.js';
import { BASELINE_PATH, readBaseline, writeBaseline } from '../memory/baseline-file.js';
import { loadPolicy } from '../memory/policy-file.js';
import type { Change } from '../model/change.js';
import type { PricedChange } from '../model/cost.js';
import type { Finding } from '../model/finding.js';
import type { Policy } from '../model/policy.js';
import type { Report } from '../model/report.js';
import { pathRules } from '../pricing/path-rules.js';
import { unmeasuredSources } from '../pricing/unmeasured-files.js';
import { analyzeRepository } from '../scan/analyze-repository.js';
import type { CheckOptions } from './check-change.js';

/** A whole-repository check judges no change, so no policy change either. */
type RepositoryCheckOptions = Omit<CheckOptions, 'policyGate'>;

const NOTHING_TO_PRICE: PricedChange = {
  cost: {
    loc: 0,
    dependencies: 0,
    abstractions: 0,
    security: 0,
    files: 0,
    modules: 0,
    tool: 0,
    total: 0,
  },
  items: [],
  dependencies: [],
  notes: [],
  unmeasured: [],
};

/**
 * `aureus check --all`: the whole working tree judged by its policy, against the committed
 * baseline (.aureus/baseline.json) instead of a base commit. There is no change to price; a
 * finding the baseline knows is reported and blocks only if it grew (beyond its rule's growth
 * tolerance). The baseline's paths are those of the commit that last wrote it: files git sees
 * renamed since then keep their findings. Without a baseline every finding is new: that is how
 * a legacy repository learns what `aureus baseline` would record.
 * A source file over the read limit has no findings to judge: the check is then incomplete.
 */
export async function checkRepository(
  root: string,
  options: RepositoryCheckOptions,
): Promise<Report> {
  const { policy, source } = await loadPolicy({ root, file: options.policyFile, cwd: options.cwd });
  const { findings, unmeasured } = await currentFindings(root, policy, options);
  const written = await readBaseline(root);
  const baseline =
    written === undefined
      ? undefined
      : followRecordedRenames(written, await renamesSince(root, BASELINE_PATH, undefined));
  const change: Change = {
    source: 'repository',
    baseSha: null,
    headSha: null,
    files: [],
    complete: true,
    notes: [
      baseline === undefined
        ? `whole-repository check without ${BASELINE_PATH}: every finding counts as new (aureus baseline records the current ones).`
        : `whole-repository check against ${BASELINE_PATH} (${baseline.length} known findings).`,
    ],
  };
  return review({
    change,
    policy,
    policySource: source.kind === 'file' ? source.path : 'built-in',
    policyChanges: [],
    // A whole-repository check has no policy change to judge.
    policyGate: { kind: 'warn' },
    priced: NOTHING_TO_PRICE,
    baseFindings: baseline ?? [],
    recordedFindings: baseline ?? [],
    headFindings: findings,
    headFacts: new Map(),
    installedDependencies: new Set(),
    incomplete: unmeasured,
    toolVersion: options.toolVersion,
  });
}

/** `aureus baseline`: records the working tree's current findings as known; returns how many. */
export async function recordBaseline(
  root: string,
  options: RepositoryCheckOptions,
): Promise<number> {
  const { policy } = await loadPolicy({ root, file: options.policyFile, cwd: options.cwd });
  return writeBaseline(root, (await currentFindings(root, policy, options)).findings);
}

/** The working tree's findings, and the source files over the read limit that have none. */
async function currentFindings(
  root: string,
  policy: Policy,
  options: RepositoryCheckOptions,
): Promise<{ findings: Finding[]; unmeasured: string[] }> {
  const progress = options.onProgress === undefined ? {} : { onProgress: options.onProgress };
  const analysis = await analyzeRepository(root, policy, {
    snapshot: { kind: 'worktree' },
    ...progress,
  });
  return {
    findings: runCritic({ policy, project: analysis }),
    unmeasured: unmeasuredSources(analysis.skipped, pathRules(policy)),
  };
}
