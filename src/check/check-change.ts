import { type ChangeRequest, readChange } from '../git/index.js';
import { localCacheDir } from '../memory/cache-dir.js';
import { createFactsCache } from '../memory/facts-cache.js';
import { builtInPolicy } from '../memory/policy-file.js';
import type { Change } from '../model/change.js';
import type { Report } from '../model/report.js';
import { PolicyError } from '../policy/policy-problem.js';
import type { AnalyzeOptions } from '../scan/analyze-repository.js';
import type { RepositoryAnalysis } from '../scan/analyze-snapshot.js';
import { gitRepositorySource } from '../scan/git-repository-source.js';
import { sameSnapshot } from '../scan/same-snapshot.js';
import { underBaseResolution } from '../scan/under-base-resolution.js';
import {
  readSnapshot,
  type SnapshotFile,
  type SnapshotSource,
} from '../scan/working-tree-snapshot.js';
import { baseSideOf } from './base-side.js';
import { baselineAtCommit } from './baseline-at-commit.js';
import type { CheckedChange } from './check-api-change.js';
import { markedOnlyAtHead, namedGeneratedAtHead } from './generated-at-base.js';
import { judgeChange } from './judge-change.js';
import { keptBaseSide, touchedPaths } from './kept-base-side.js';
import { basePolicy, changedPolicy, repairOrRefuse } from './policy-at-commit.js';
import { type PolicyGateOption, resolvePolicyGate } from './policy-gate.js';

export interface CheckOptions {
  /** A policy file named by the user, used instead of the base commit's policy. */
  readonly policyFile?: string | undefined;
  /** The policy's path inside the repository, read at the base commit (`.aureus/policy.yaml`). */
  readonly policyPath?: string | undefined;
  readonly cwd: string;
  readonly toolVersion: string;
  /**
   * A local check (CLI, hook): a broken committed policy lets through the change that repairs
   * it. Off on the server side, where a broken base policy stays incomplete: otherwise breaking
   * the policy first would buy a change judged by a policy of its own.
   */
  readonly repairBrokenPolicy?: boolean | undefined;
  /**
   * What a change that loosens the policy gets: a warning locally (CLI, hooks), a block until a
   * maintainer approves the head on a pull request (the Action).
   */
  readonly policyGate: PolicyGateOption;
  readonly onProgress?: AnalyzeOptions['onProgress'];
  /**
   * The change of the request, when the caller started reading it already: a hook reads it
   * from git while the analysis is still loading. Read here otherwise.
   */
  readonly change?: Promise<Change> | undefined;
}

/**
 * `aureus check`: reads the change from git, analyses the repository at the base and at the
 * head, prices the change, runs the critic on both sides and lets the gate judge it, all by the
 * policy of the base commit (a change cannot loosen its own gate). The same core answers for the
 * CLI, the hook, the Action and the App; only where the change comes from differs.
 */
export async function checkChange(
  root: string,
  request: ChangeRequest,
  options: CheckOptions,
): Promise<Report> {
  return (await checkChangeWithInputs(root, request, options)).report;
}

export type { CheckedChange } from './check-api-change.js';

/** checkChange, also handing back the change and the policy for what follows (reflexion). */
export async function checkChangeWithInputs(
  root: string,
  request: ChangeRequest,
  options: CheckOptions,
): Promise<CheckedChange> {
  const change = await (options.change ?? readChange(root, request));
  const judging = await basePolicy(root, change.baseSha, options).catch((error: unknown) => {
    if (!(error instanceof PolicyError) || options.repairBrokenPolicy !== true) throw error;
    return repairOrRefuse(error, change, options.policyPath);
  });
  // A repair is reported against the defaults: what it sets beyond them is still a policy change.
  const against = judging.repairs ? await builtInPolicy(root) : judging.policy;
  const policyEdit = await changedPolicy(change, against, options.policyPath);
  const progress = options.onProgress === undefined ? {} : { onProgress: options.onProgress };
  const cacheDir = localCacheDir(root);
  const factsCache = createFactsCache(cacheDir);
  const [baseFiles, headFiles] = await Promise.all([
    readSnapshot(root, baseSnapshot(change)),
    readSnapshot(root, headSnapshot(change, request)),
  ]);
  // Loaded only for a side that is not kept: a re-run (a hook on the same staged files, a check
  // of a clean tree) never loads the analysis, its parsers or their WebAssembly.
  const analyze = async (files: readonly SnapshotFile[], shown = {}) => {
    const { analyzeRepository } = await import('../scan/analyze-repository.js');
    return analyzeRepository(root, judging.policy, {
      snapshot: { kind: 'files', files },
      factsCache,
      ...shown,
    });
  };
  const mixed = underBaseResolution(headFiles, baseFiles);
  const sideOf = { scope: gitRepositorySource(root).resolutionScope, policy: judging.policy };
  const sideOn = (
    files: readonly SnapshotFile[],
    touched: readonly string[],
    shown = {},
    newMarks: ReadonlySet<string> = new Set(),
  ) => {
    const marks = newMarks.size === 0 ? {} : { newMarks: [...newMarks] };
    const inputs = { ...sideOf, files, ...marks };
    return keptBaseSide(cacheDir, inputs, touched, factsCache, () => analyze(files, shown));
  };
  const baseTouched = touchedPaths(change, 'base');
  const headTouched = touchedPaths(change, 'head');
  // A change that changes no file (a clean working tree) has one side for both: kept from the
  // last check on these files, or analysed once.
  const same = sameSnapshot(headFiles, baseFiles);
  const [base, head, headUnderBase] = same
    ? await sideOn(baseFiles, [...baseTouched, ...headTouched], progress).then(
        (side) => [side, side, undefined] as const,
      )
    : await (async () => {
        const baseSide = sideOn(baseFiles, baseTouched);
        // A generator's mark counts where the base was generated code already: a change touching
        // a path named as generated waits for the base (nearly always kept) to tell which.
        const newMarks = namedGeneratedAtHead(change, judging.policy)
          ? markedOnlyAtHead(change, judging.policy, (await baseSide).facts)
          : new Set<string>();
        const judged = (analysis: RepositoryAnalysis) =>
          baseSideOf(analysis, judging.policy, newMarks);
        return Promise.all([
          baseSide,
          // The head too: the next commit's base once committed (a staged change, a commit), and
          // what a re-run on the same files (the hook again, `check` again) finds kept. A file
          // the working tree holds that git has no blob for has no id to key it by: analysed
          // each time.
          headFiles.every((file) => file.unstored === undefined)
            ? sideOn(headFiles, headTouched, progress, newMarks)
            : analyze(headFiles, progress).then(judged),
          mixed === undefined ? undefined : analyze(mixed).then(judged),
        ]);
      })();
  const report = judgeChange({
    change,
    judging,
    policyChanges: policyEdit.changes,
    policyLoosens: policyEdit.loosens,
    policyGate: await resolvePolicyGate(options.policyGate, policyEdit.loosens, change.headSha),
    policyProblems: policyEdit.problems,
    base,
    head,
    headUnderBase,
    headPaths: headFiles.map((file) => file.path),
    baseline:
      change.baseSha === null
        ? undefined
        : await baselineAtCommit(root, change.baseSha, judging.policy),
    toolVersion: options.toolVersion,
  });
  return { change, policy: judging.policy, report };
}

/**
 * The base's files, listed without their sizes: the base is nearly always kept from an earlier
 * check (the last commit's hook, a re-run), and then no blob of it is read.
 */
function baseSnapshot(change: Change): SnapshotSource {
  return change.baseSha === null
    ? { kind: 'empty' }
    : { kind: 'commit', ref: change.baseSha, sizes: false };
}

/**
 * The head's files. A commit's are listed without their sizes too: `ls-tree -l` opens every blob
 * of the tree (about 0.3 s of CPU for 3,000 loose objects) for sizes only a side that is not kept
 * uses, and git tells those when it reads the blobs (before their contents stream).
 */
function headSnapshot(change: Change, request: ChangeRequest): SnapshotSource {
  if (request.kind === 'staged') return { kind: 'index' };
  if (request.kind === 'worktree' || change.headSha === null) return { kind: 'worktree' };
  return { kind: 'commit', ref: change.headSha, sizes: false };
}
