import { lstat, readFile, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from '../../git/git-runner.js';
import { parseIndexFile } from '../../git/index-file.js';
import {
  createLooseRef,
  type GitDirs,
  gitDirsOf,
  readHead,
  writeLooseObject,
} from '../../git/loose-objects.js';
import type { TreeEntry } from '../../git/tree-id.js';
import { errnoCode } from '../../memory/errno-code.js';
import { mtimeOfFile, quickSnapshot, recordOf, type TreeRecord } from './tree-record.js';

/** Where a run works: its id, its linked worktree, and a private folder of its own. */
export interface RunPlace {
  readonly id: string;
  /** The run's linked worktree, on its own branch. */
  readonly tree: string;
  /** A folder of the run outside the tree (temporary index files). */
  readonly dir: string;
}

export interface Checkpoint {
  readonly n: number;
  readonly label: string;
  readonly commit: string;
  readonly ref: string;
}

/** Who checkpoints and the builder's own commits are by. */
export const BUILDER_IDENTITY = {
  GIT_AUTHOR_NAME: 'AUREUS builder',
  GIT_AUTHOR_EMAIL: 'builder@aureus.invalid',
  GIT_COMMITTER_NAME: 'AUREUS builder',
  GIT_COMMITTER_EMAIL: 'builder@aureus.invalid',
} as const;

const checkpointsRef = (run: RunPlace): string => `refs/aureus/runs/${run.id}/checkpoints/`;

/**
 * The tree's whole state as a git tree: tracked files as they are now and new files, what
 * .gitignore ignores left out. Written through an index file of the run's own, so neither the
 * user's index nor the run tree's is touched. The index file is kept between snapshots for its
 * stat data alone: `read-tree -i -m HEAD` sets its entries to the run's HEAD exactly as a fresh
 * `read-tree HEAD` would, keeping the stat data of the entries whose blob is unchanged, so
 * `add --all` hashes only the files changed since and the tree is the same as a fresh index's.
 * No hook runs, and no file system monitor is asked (it would start a daemon for the run's tree).
 */
export async function snapshotTree(run: RunPlace): Promise<string> {
  const env = { GIT_INDEX_FILE: snapshotIndex(run) };
  const git = (args: readonly string[]) =>
    runGit(run.tree, ['-c', 'core.fsmonitor=false', ...args], { env });
  // -i: a temporary index, so the working tree's files are not asked to match it.
  await git(['read-tree', '-i', '-m', 'HEAD']);
  await git(['add', '--all', '--', '.']);
  return (await git(['write-tree'])).stdout.toString('utf8').trim();
}

const snapshotIndex = (run: RunPlace): string => join(run.dir, `snapshot-${process.pid}.index`);

/** A checkpoint as taken, with its tree: what the critic knows the tree to hold. */
export interface TakenCheckpoint extends Checkpoint {
  readonly tree: string;
  /** The tree's files, when the checkpoint was taken without git and so knows them. */
  readonly files?: readonly TreeEntry[];
}

/** Takes the checkpoints of one run, numbered from 1 on. */
export type Checkpointer = (label: string) => Promise<TakenCheckpoint>;

/**
 * Records the tree's state as commit `refs/aureus/runs/<id>/checkpoints/<n>`, n counting from 1.
 * The last number is kept once read: a ref that another process created meanwhile makes the
 * update fail (it must not exist yet), and the numbers are then read again.
 */
export function checkpointer(run: RunPlace): Checkpointer {
  let last: number | undefined;
  /** What the last checkpoint knew of the tree; undefined until git took one (or never). */
  let record: TreeRecord | undefined;
  const marker = join(run.dir, `snapshot-${process.pid}.time`);
  const create = async (commit: string, tree: string, quick: GitDirs | undefined) => {
    let n = (last ?? (await highestCheckpoint(run))) + 1;
    const created =
      quick === undefined
        ? (
            await runGit(run.tree, ['update-ref', refOf(run, n), commit, ''], {
              okExitCodes: [0, 128],
            })
          ).exitCode === 0
        : createLooseRef(quick, refOf(run, n), commit) === 'created';
    if (!created) {
      // Another process took that number (or git failed): counted again, and now any failure
      // is git's error.
      n = (await highestCheckpoint(run)) + 1;
      await runGit(run.tree, ['update-ref', refOf(run, n), commit, '']);
    }
    last = n;
    return { n, ref: refOf(run, n), commit, tree };
  };
  return async (label) => {
    const quick = record === undefined ? undefined : quickSnapshot(run.tree, record, marker);
    if (quick !== undefined) {
      record = quick.record;
      const commit = writeLooseObject(
        quick.record.dirs,
        'commit',
        commitBody(quick.tree, quick.head, label),
      );
      return {
        ...(await create(commit, quick.tree, quick.record.dirs)),
        label,
        files: quick.files,
      };
    }
    const tree = await snapshotTree(run);
    // The parent is the run's HEAD as commit-tree reads it, one git process fewer.
    const [committed, next] = await Promise.all([
      runGit(run.tree, ['commit-tree', '--no-gpg-sign', tree, '-p', 'HEAD', '-m', label], {
        env: BUILDER_IDENTITY,
      }),
      recordSnapshot(run),
    ]);
    record = next;
    const commit = committed.stdout.toString('utf8').trim();
    return { ...(await create(commit, tree, undefined)), label };
  };
}

/** A checkpoint commit as `git commit-tree -m <label>` writes it, by the builder, dated now. */
function commitBody(tree: string, parent: string, label: string): Buffer {
  const who = (name: string, email: string) =>
    `${name} <${email}> ${Math.floor(Date.now() / 1000)} +0000`;
  const author = who(BUILDER_IDENTITY.GIT_AUTHOR_NAME, BUILDER_IDENTITY.GIT_AUTHOR_EMAIL);
  const committer = who(BUILDER_IDENTITY.GIT_COMMITTER_NAME, BUILDER_IDENTITY.GIT_COMMITTER_EMAIL);
  return Buffer.from(
    `tree ${tree}\nparent ${parent}\nauthor ${author}\ncommitter ${committer}\n\n${label}\n`,
    'utf8',
  );
}

/**
 * The record of the snapshot git just wrote to the run's snapshot index, for the next
 * checkpoint to be taken without git: the index's entries and stat data, the ignored paths, the
 * paths some attribute applies to. Undefined where the quick path does not go (another object
 * format or ref storage, a submodule, an index git wrote in a version not read here).
 */
async function recordSnapshot(run: RunPlace): Promise<TreeRecord | undefined> {
  const dirs = gitDirsOf(run.tree);
  if (dirs === undefined) return undefined;
  const index = snapshotIndex(run);
  const env = { GIT_INDEX_FILE: index };
  const entries = parseIndexFile(await readFile(index));
  const head = readHead(dirs);
  if (entries === undefined || head === undefined) return undefined;
  const indexTime = mtimeOfFile(index);
  const [ignored, attributes] = await Promise.all([
    runGit(
      run.tree,
      ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'],
      { env },
    ),
    runGit(run.tree, ['check-attr', '-z', '--stdin', '--all'], {
      env,
      input: `${entries.map((entry) => entry.path).join('\0')}\0`,
    }),
  ]);
  // check-attr -z: path, attribute, value, each NUL-terminated, for every attribute set.
  const fields = attributes.stdout.toString('utf8').split('\0');
  const attributed = new Set<string>();
  for (let i = 0; i + 2 < fields.length; i += 3) attributed.add(fields[i] as string);
  return recordOf(dirs, head, entries, indexTime, nulList(ignored.stdout), attributed);
}

const nulList = (bytes: Buffer): string[] =>
  bytes
    .toString('utf8')
    .split('\0')
    .filter((path) => path !== '');

/**
 * Puts the run's tree back exactly as checkpoint `n` found it: files changed or deleted since
 * are restored, files created since are removed (ignored files stay), and the run's branch
 * returns to the commit it was on then. Returns the checkpoint, now current, so the loop can
 * restore the budget it had there.
 */
export async function rollback(run: RunPlace, n: number): Promise<Checkpoint> {
  const ref = refOf(run, n);
  const commit = await revision(run, ref);
  const label = (await runGit(run.tree, ['log', '-1', '--format=%B', commit])).stdout
    .toString('utf8')
    .trim();
  const changed = await runGit(run.tree, [
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    '--name-status',
    `${commit}^{tree}`,
    await snapshotTree(run),
  ]);
  const fields = changed.stdout
    .toString('utf8')
    .split('\0')
    .filter((field) => field !== '');
  const restore: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = fields[i];
    const path = fields[i + 1] as string;
    if (status === 'A') await removeFile(join(run.tree, path));
    else restore.push(path);
  }
  await runGit(run.tree, ['reset', '--quiet', '--mixed', await revision(run, `${commit}^`)]);
  if (restore.length > 0) {
    const index = join(run.dir, `rollback-${process.pid}.index`);
    const env = { GIT_INDEX_FILE: index };
    try {
      await runGit(run.tree, ['read-tree', commit], { env });
      await runGit(run.tree, ['checkout-index', '--force', '-z', '--stdin'], {
        env,
        input: `${restore.join('\0')}\0`,
      });
    } finally {
      await rm(index, { force: true });
    }
  }
  return { n, label, commit, ref };
}

async function removeFile(path: string): Promise<void> {
  try {
    const stats = await lstat(path);
    if (!stats.isDirectory()) await unlink(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}

async function revision(run: RunPlace, name: string): Promise<string> {
  const answer = await runGit(run.tree, ['rev-parse', '--verify', '--quiet', `${name}^{commit}`]);
  return answer.stdout.toString('utf8').trim();
}

const refOf = (run: RunPlace, n: number): string => `${checkpointsRef(run)}${n}`;

async function highestCheckpoint(run: RunPlace): Promise<number> {
  const listed = await runGit(run.tree, [
    'for-each-ref',
    '--format=%(refname)',
    checkpointsRef(run),
  ]);
  return listed.stdout
    .toString('utf8')
    .split('\n')
    .map((ref) => Number(ref.slice(checkpointsRef(run).length)))
    .filter((n) => Number.isInteger(n) && n > 0)
    .reduce((max, n) => Math.max(max, n), 0);
}
