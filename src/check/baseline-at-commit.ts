import { followRecordedRenames } from '../critic/follow-renames.js';
import { baselineLoosens } from '../gate/baseline-direction.js';
import { toleratesGrowth } from '../gate/classify-findings.js';
import { renamesSince } from '../git/index.js';
import { BASELINE_PATH, parseBaseline } from '../memory/baseline-file.js';
import type { Change, FileVersion } from '../model/change.js';
import { AureusError } from '../model/errors.js';
import type { RecordedFinding } from '../model/finding.js';
import type { Policy } from '../model/policy.js';
import { gitRepositorySource } from '../scan/git-repository-source.js';
import type { RepositorySource } from '../scan/repository-source.js';

const SYMLINK_MODE = '120000';

/** What .aureus/baseline.json records at a commit, and why nothing when it could not be read. */
export interface CommittedBaseline {
  readonly recorded: readonly RecordedFinding[];
  /** Set when the commit has a baseline that does not read: the change is judged without it. */
  readonly note?: string;
}

/**
 * The findings .aureus/baseline.json records at `commit`, read from git objects like the
 * policy (a change cannot edit the figures it is judged by). They only let worsened findings
 * within a growth tolerance through, so a baseline that cannot be read (a link, not text, too
 * large, not one AUREUS wrote) is said in a note and the change is judged without it, strictly:
 * never a pass it would not have had, and never a repository locked by a broken file (the
 * change that repairs it is judged too).
 */
export async function committedBaseline(
  source: RepositorySource,
  commit: string,
  policy: Policy,
): Promise<CommittedBaseline> {
  // Its figures change no verdict when no rule tolerates growth: not read, as a hook pays for
  // every read.
  if (!toleratesGrowth(policy)) return { recorded: [] };
  const entry = (await source.listFiles(commit)).find((file) => file.path === BASELINE_PATH);
  if (entry === undefined) return { recorded: [] };
  const shown = `${BASELINE_PATH}@${commit.slice(0, 12)}`;
  const unread = (why: string): CommittedBaseline => ({
    recorded: [],
    note: `${shown} ${why}, so no growth tolerance applies (aureus baseline writes it again).`,
  });
  if (entry.mode === SYMLINK_MODE) return unread('is a symbolic link, which AUREUS never follows');
  const [read] = await source.readBlobs([entry]);
  const version = read?.version;
  if (version?.kind !== 'text' || version.text === undefined || version.validUtf8 === false)
    return unread(`is not UTF-8 text (${version?.kind ?? 'unreadable'})`);
  try {
    return { recorded: parseBaseline(version.text, shown) };
  } catch (error) {
    if (error instanceof AureusError) return unread('is not a baseline AUREUS wrote');
    throw error;
  }
}

/**
 * committedBaseline in a local clone, under the paths files have at `commit`: the renames since
 * the commit that last wrote the baseline are followed (renamesSince).
 */
export async function baselineAtCommit(
  root: string,
  commit: string,
  policy: Policy,
): Promise<CommittedBaseline> {
  // Listed without sizes, as the check lists its base (check-change.ts): one listing for both.
  const source = gitRepositorySource(root, { listSizes: false });
  const baseline = await committedBaseline(source, commit, policy);
  if (baseline.recorded.length === 0) return baseline;
  const renames = await renamesSince(root, BASELINE_PATH, commit);
  return { ...baseline, recorded: followRecordedRenames(baseline.recorded, renames) };
}

/**
 * What the change's edit of .aureus/baseline.json gives away (baselineLoosens): on a pull request
 * it needs the same approval as a loosened policy. Its base side is read as strictly as a
 * committed baseline; one that does not read counts as empty, so every entry of the new file is
 * an addition (fail closed). A new file that does not read records nothing, so gives nothing.
 */
export function changedBaseline(change: Change): string[] {
  const file = change.files.find((candidate) => candidate.path === BASELINE_PATH);
  if (file?.head === undefined) return [];
  const after = recordedIn(file.head);
  if (after.length === 0) return [];
  // A file moved onto the baseline's path brings figures nobody recorded there.
  const before =
    file.base !== undefined && (file.oldPath ?? file.path) === BASELINE_PATH
      ? recordedIn(file.base)
      : [];
  return baselineLoosens(before, after);
}

function recordedIn(version: FileVersion): RecordedFinding[] {
  if (version.mode === SYMLINK_MODE || version.kind !== 'text' || version.text === undefined)
    return [];
  if (version.validUtf8 === false) return [];
  try {
    return parseBaseline(version.text, BASELINE_PATH);
  } catch (error) {
    if (error instanceof AureusError) return [];
    throw error;
  }
}
