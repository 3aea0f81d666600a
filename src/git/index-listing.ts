import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { parseIndexListing } from './index-file.js';
import type { Repository } from './repository.js';

/** One entry of the index as `git ls-files --stage` lists it: path, blob id and mode. */
export interface IndexListed {
  readonly path: string;
  readonly blobSha: string;
  readonly mode: string;
}

/**
 * Larger index files are left to git: about 100 bytes an entry, so a million files. The bound
 * keeps a crafted file from making AUREUS read gigabytes; git then answers, or fails loudly.
 */
const MAX_INDEX_BYTES = 128 * 1024 * 1024;

/**
 * Never through a link, and never blocked on a FIFO put in its place. Windows has neither flag;
 * there the fstat below is what tells a link or a FIFO from a file.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The index's entries read from its file in this process, as `git ls-files --stage` would list
 * them, or undefined whenever git must answer instead: a git process costs a pre-commit hook
 * more than reading and checking the file does.
 *
 * The file is the one git reads: `GIT_INDEX_FILE` when set (a hook of `git commit -a` or
 * `git commit <paths>` runs with a temporary index), else `index` in this worktree's own git
 * folder, as git itself told (openRepository). It is read only when that is an absolute path,
 * a regular file (never through a link: O_NOFOLLOW), of a SHA-1 repository, and its trailing
 * SHA-1 checksum holds, so the entries are exactly the bytes git wrote and would read itself;
 * anything parseIndexListing does not read whole (version 4, a split or sparse index, a required
 * extension, unmerged entries, a path that is not UTF-8) is git's to list, and so is every
 * failure to read. A crafted index changes nothing here that it would not change for git.
 */
export async function readIndexListing(
  repository: Repository,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<IndexListed[] | undefined> {
  if (repository.objectFormat !== 'sha1' || repository.workTree === undefined) return undefined;
  const named = env.GIT_INDEX_FILE;
  // A relative GIT_INDEX_FILE is resolved by git against folders it moves between: git decides.
  if (named !== undefined && !isAbsolute(named)) return undefined;
  const path = named ?? join(repository.gitDir, 'index');
  const bytes = await readBoundedFile(path);
  if (bytes === undefined) return undefined;
  return parseIndexListing(bytes, { verify: true });
}

async function readBoundedFile(path: string): Promise<Buffer | undefined> {
  const handle = await open(path, OPEN_FLAGS).catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > MAX_INDEX_BYTES) return undefined;
    const bytes = await handle.readFile();
    return bytes.length > MAX_INDEX_BYTES ? undefined : bytes;
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
