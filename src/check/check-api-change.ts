import type { BudgetApproval } from '../gate/review.js';
import type { TreeReader } from '../github/api-trees.js';
import type { GitHubClient } from '../github/github-client.js';
import type { RepositoryCoordinates } from '../github/repository-coordinates.js';
import { createFactsCache } from '../memory/facts-cache.js';
import type { Change, FileVersion } from '../model/change.js';
import { AureusError } from '../model/errors.js';
import type { Policy } from '../model/policy.js';
import type { Report } from '../model/report.js';
import { analyzeSnapshot } from '../scan/analyze-snapshot.js';
import { apiRepositorySource } from '../scan/api-repository-source.js';
import { underBaseResolution } from '../scan/under-base-resolution.js';
import type { SnapshotFile } from '../scan/working-tree-snapshot.js';
import { baseSideOf } from './base-side.js';
import { committedBaseline } from './baseline-at-commit.js';
import { markedOnlyAtHead } from './generated-at-base.js';
import { judgeChange } from './judge-change.js';
import { changedPolicy, committedPolicy } from './policy-at-commit.js';
import { type PolicyGateOption, resolvePolicyGate } from './policy-gate.js';

/** How the App checks a change over the REST API, whatever the change is of. */
export interface CheckOverApiOptions {
  /**
   * The App's cache folder (appCacheFolder) for the facts, resolution and policy caches; never
   * a repository's. They are keyed by content, so one folder serves every repository the App
   * checks. Undefined: no caches.
   */
  readonly cacheDir: string | undefined;
  /** The policy's path inside the repository, read at the base; `.aureus/policy.yaml` by default. */
  readonly policyPath?: string | undefined;
  readonly toolVersion: string;
  /** Blobs above this many bytes are counted but never downloaded; 1 MiB by default. */
  readonly maxBlobBytes?: number | undefined;
  /**
   * A maintainer's approval of a budget overrun for one head commit: applied only when the
   * head read is that commit (a push after the approval is judged without it).
   */
  readonly budgetApproval?: (BudgetApproval & { readonly headSha: string }) | undefined;
  /** What a change that loosens the policy gets, and where its approval is found. */
  readonly policyGate: PolicyGateOption;
}

/**
 * The Report, the policy that judged it (its `integrations.app` settings drive the App), and the
 * change read (reflexion works on its files).
 */
export interface CheckedChange {
  readonly report: Report;
  readonly policy: Policy;
  readonly change: Change;
}

/** A change read over the API, and what read it. */
export interface ApiChange {
  readonly client: GitHubClient;
  readonly repository: RepositoryCoordinates;
  /** The reader the change was read with: each tree is then read once for the whole check. */
  readonly readTree: TreeReader;
  readonly change: Change;
  /** What the change is of, for an error: `pull request #3`, `commits a…b`. */
  readonly subject: string;
}

/**
 * Everything a check over the API does once it has the change: the policy from the base
 * (merge base), both sides analysed whole from their trees, downloading only the blobs whose
 * facts the store does not hold yet (and none twice), then the judgement.
 *
 * Requests: 1 blob for the base policy (none once its parse is cached), 1 for the base's
 * .aureus/baseline.json when it has one and the policy tolerates growth, 1 per source file
 * whose facts the store lacks (none for the change's own sides, already read), and, when a side
 * has paths or configs no earlier check resolved, 1 per tsconfig/jsconfig/package.json blob the
 * store has no text of. Trees come from `readTree`: none when it is the memoized reader the
 * change was read with. Unreadable blobs and truncated trees make the Report incomplete.
 */
export async function checkApiChange(
  read: ApiChange,
  options: CheckOverApiOptions,
): Promise<CheckedChange> {
  const { change, readTree } = read;
  const { baseSha, headSha } = change;
  if (baseSha === null || headSha === null) {
    throw new AureusError(
      `GitHub gave no merge base or head for ${read.subject}.`,
      'check that its base and head share history.',
    );
  }
  const limit = options.maxBlobBytes === undefined ? {} : { maxBlobBytes: options.maxBlobBytes };
  const source = apiRepositorySource(read.client, read.repository, {
    cacheDir: options.cacheDir,
    ...limit,
    readTree,
    known: changedVersions(change),
  });
  const judging = await committedPolicy(source, baseSha, options.policyPath);
  const policyEdit = await changedPolicy(change, judging.policy, options.policyPath);
  const factsCache = createFactsCache(options.cacheDir);
  const analyze = (files: readonly SnapshotFile[]) =>
    analyzeSnapshot(source, files, judging.policy, { factsCache });
  const [baseFiles, headFiles] = await Promise.all([
    source.listFiles(baseSha),
    source.listFiles(headSha),
  ]);
  // One side after the other: the head then finds the base's facts in the shared cache, where
  // side by side both would download and parse every file a cold store lacks.
  const base = await analyze(baseFiles);
  const head = await analyze(headFiles);
  const mixed = underBaseResolution(headFiles, baseFiles);
  const headUnderBase = mixed === undefined ? undefined : await analyze(mixed);
  const [baseTree, headTree] = await Promise.all([readTree(baseSha), readTree(headSha)]);
  // The change only needs its own paths from a truncated tree; a whole-repository analysis
  // needs them all (a cycle or an implementation may sit in the files left out).
  const truncated = [
    ...(baseTree.truncated ? [truncatedNote('base')] : []),
    ...(headTree.truncated ? [truncatedNote('head')] : []),
  ];
  const approval = options.budgetApproval;
  const baseSide = baseSideOf(base, judging.policy);
  const newMarks = markedOnlyAtHead(change, judging.policy, baseSide.facts);
  const report = judgeChange({
    change,
    judging,
    policyChanges: policyEdit.changes,
    policyLoosens: policyEdit.loosens,
    policyGate: await resolvePolicyGate(options.policyGate, policyEdit.loosens, headSha),
    policyProblems: policyEdit.problems,
    base: baseSide,
    head: baseSideOf(head, judging.policy, newMarks),
    headUnderBase:
      headUnderBase === undefined ? undefined : baseSideOf(headUnderBase, judging.policy, newMarks),
    headPaths: headFiles.map((file) => file.path),
    // Without a clone the renames since the baseline was written are not followed: a finding in
    // a file moved since then has no recorded figure, and its growth blocks as it always did.
    baseline: await committedBaseline(source, baseSha, judging.policy),
    incomplete: truncated,
    toolVersion: options.toolVersion,
    ...(approval?.headSha === headSha
      ? { budgetApproval: { by: approval.by, reason: approval.reason } }
      : {}),
  });
  return { report, policy: judging.policy, change };
}

function changedVersions(change: Change): FileVersion[] {
  return change.files.flatMap((file) => [file.base, file.head]).filter((v) => v !== undefined);
}

function truncatedNote(side: 'base' | 'head'): string {
  return `GitHub truncated the ${side} tree, so the whole-repository analysis of the ${side} misses files.`;
}
