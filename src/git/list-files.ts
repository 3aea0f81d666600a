import { resolve } from 'node:path';
import { AureusError } from '../model/errors.js';
import { utf8TextOrUndefined } from '../model/path-bytes.js';
import { splitNul } from './diff-entries.js';
import { explainGitFailure } from './explain-git-failure.js';
import { toGitPath } from './git-path.js';
import { runGit } from './git-runner.js';
import { readIndexListing } from './index-listing.js';
import { openRepository, type Repository, requireWorkTree } from './repository.js';
import { assertSafeRevision, findCommit } from './revisions.js';

export interface TrackedFile {
  readonly path: string;
  /** Blob id (a submodule's commit id), the key of the facts cache. */
  readonly blobSha: string;
  readonly mode: string;
  /** Bytes; known for a commit's files (not for submodules), not for the index. */
  readonly size?: number;
}

/**
 * Every tracked file at a commit (or in the index when `ref` is undefined), with its blob id
 * and mode, from `git ls-tree -r -z -l --full-tree` / `git ls-files -s -z`: the
 * whole-repository path keys its facts cache by these ids, so unchanged files are never
 * parsed twice. Sorted by path.
 *
 * `sizes: false` lists a commit without its blobs' sizes (`-l` left out): git then reads no
 * object but the trees, where `-l` opens every blob, about 0.3 s of CPU for 3,000 loose
 * objects (a fresh commit's). For a listing that may well need no blob at all: a check whose
 * base is kept (kept-base-side.ts). Whoever reads the blobs then learns their sizes from git.
 */
export async function listTrackedFiles(
  repoDir: string,
  ref?: string,
  options: { readonly sizes?: boolean } = {},
): Promise<TrackedFile[]> {
  const repository = await openRepository(repoDir);
  if (ref === undefined) {
    const cwd = requireWorkTree(repository, 'indexed');
    // Read in this process when the file allows (a hook's listing), else git lists it.
    const read = await readIndexListing(repository);
    if (read !== undefined) return sortByPath(read);
    const listing = await runGit(cwd, ['ls-files', '--stage', '-z', '--full-name']);
    return sortByPath(parseListing(listing.stdout, parseIndexLine));
  }
  assertSafeRevision(ref, 'listed');
  // A full object id is listed at once (ls-tree peels it to its commit): one git process fewer
  // for the callers that list commits they just made.
  const commit = OBJECT_ID.test(ref) ? ref : await findCommit(repository, ref);
  if (!commit) throw notACommit(ref);
  return listCommit(repository, commit, options.sizes !== false);
}

const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

function notACommit(ref: string): AureusError {
  return new AureusError(
    `the revision "${ref}" does not name a commit in this repository.`,
    'check the name, or fetch it first (git fetch origin <ref>).',
  );
}

/**
 * The paths the index tracks at or under `path` (relative to `folder`, and so are the answers);
 * none when `folder` is in no repository's working tree.
 */
export async function trackedPathsUnder(folder: string, path: string): Promise<string[]> {
  const read = await indexPathsUnder(folder, path);
  if (read !== undefined) return read;
  const args = ['ls-files', '-z', '--', `:(literal)${path}`];
  const answer = await runGit(folder, args, { okExitCodes: [0, 128] });
  if (answer.exitCode === 0) return splitNul(answer.stdout).map((field) => field.toString('utf8'));
  if (/not a git repository|must be run in a work tree/i.test(answer.stderr)) return [];
  throw explainGitFailure(folder, args, answer.exitCode, answer.stderr);
}

/**
 * trackedPathsUnder answered from the index file (index-listing.ts) where `folder` is the top of
 * a working tree, so that paths need no translation; undefined where git must answer (then git
 * also tells a folder outside any repository, which this leaves to it).
 */
async function indexPathsUnder(folder: string, path: string): Promise<string[] | undefined> {
  const repository = await openRepository(folder).catch(() => undefined);
  if (repository === undefined || repository.workTree !== resolve(folder)) return undefined;
  const entries = await readIndexListing(repository);
  if (entries === undefined) return undefined;
  // `:(literal)<path>`: the path itself, or anything below it as a folder.
  const prefix = `${path.replace(/\/+$/, '')}/`;
  return entries
    .map((entry) => entry.path)
    .filter((entryPath) => entryPath === path || entryPath.startsWith(prefix));
}

/**
 * A commit's tree never changes, so its listing is kept for the process: a check lists its base
 * twice (the policy there, then the analysis). A few of the latest are kept, never more, since
 * a long-running server sees many commits.
 */
const commitListings = new Map<string, Promise<TrackedFile[]>>();
const KEPT_LISTINGS = 8;

function listCommit(
  repository: Repository,
  commit: string,
  sizes: boolean,
): Promise<TrackedFile[]> {
  const { cwd } = repository;
  const key = `${cwd}\u0000${commit}\u0000${sizes}`;
  const known = commitListings.get(key);
  if (known !== undefined) return known.then((files) => [...files]);
  const args = [
    'ls-tree',
    '-r',
    '-z',
    ...(sizes ? ['-l'] : []),
    '--full-tree',
    `${commit}^{commit}`,
  ];
  const listing = runGit(cwd, args, { okExitCodes: [0, 128] }).then(async (answer) => {
    if (answer.exitCode === 0) return sortByPath(parseListing(answer.stdout, parseTreeLine));
    // An id that names no commit here, or another failure: rev-parse tells them apart.
    if ((await findCommit(repository, commit)) === null) throw notACommit(commit);
    throw explainGitFailure(cwd, args, answer.exitCode, answer.stderr);
  });
  commitListings.set(key, listing);
  // A failed listing is not kept: the next call asks git again.
  listing.catch(() => commitListings.delete(key));
  for (const old of [...commitListings.keys()].slice(0, -KEPT_LISTINGS)) commitListings.delete(old);
  return listing.then((files) => [...files]);
}

/**
 * Every entry of a `-z` listing. Nearly always the whole output is UTF-8 (git's separators are
 * ASCII, so it is exactly when every path is): it is then decoded once and cut as text, which
 * a hook pays for twice per run on a repository of thousands of files. Otherwise each path is
 * decoded on its own, its bytes kept (toGitPath): the same answers, only slower.
 */
function parseListing(
  output: Buffer,
  parse: (head: string, path: string, line: () => Buffer) => TrackedFile,
): TrackedFile[] {
  const text = utf8TextOrUndefined(output);
  const files: TrackedFile[] = [];
  if (text === undefined) {
    for (const line of splitNul(output)) {
      const tab = line.indexOf(9);
      const head = line.subarray(0, tab === -1 ? line.length : tab).toString('latin1');
      const path = tab === -1 ? '' : toGitPath(line.subarray(tab + 1)).text;
      files.push(parse(tab === -1 ? '' : head, path, () => line));
    }
    return files;
  }
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\0', start);
    if (end === -1) end = text.length;
    const tab = text.indexOf('\t', start);
    const at = start;
    const line = () => Buffer.from(text.slice(at, end), 'utf8');
    files.push(
      tab === -1 || tab > end
        ? parse('', '', line)
        : parse(text.slice(start, tab), text.slice(tab + 1, end), line),
    );
    start = end + 1;
  }
  return files;
}

/**
 * `<mode> SP <type> SP <id> SP+ <size|-> TAB <path>`, or without the size (no `-l`): `head` is
 * what precedes the tab, empty when there is none.
 */
function parseTreeLine(head: string, path: string, line: () => Buffer): TrackedFile {
  const [mode = '', , blobSha = '', size = ''] = head.split(/ +/);
  if (head === '' || !/^\d{6}$/.test(mode) || blobSha === '') throw unparsable('ls-tree', line());
  return { path, blobSha, mode, ...(/^\d+$/.test(size) ? { size: Number(size) } : {}) };
}

/** `<mode> SP <id> SP <stage> TAB <path>`; a stage other than 0 means a merge conflict. */
function parseIndexLine(head: string, path: string, line: () => Buffer): TrackedFile {
  const [mode = '', blobSha = '', stage = ''] = head.split(' ');
  if (head === '' || !/^\d{6}$/.test(mode) || blobSha === '') throw unparsable('ls-files', line());
  if (stage !== '0') {
    throw new AureusError(
      `${path} is unmerged in the index, so it has no single version to list.`,
      'finish or abort the merge (git merge --continue / --abort), then run AUREUS again.',
    );
  }
  return { path, blobSha, mode };
}

function sortByPath(files: TrackedFile[]): TrackedFile[] {
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function unparsable(command: string, line: Buffer): AureusError {
  return new AureusError(
    `git ${command} printed a line AUREUS could not parse ("${line.toString('latin1').slice(0, 80)}").`,
    'report this with your git version (git --version).',
  );
}
