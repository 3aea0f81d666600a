import { createHash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, open, readlink, realpath } from 'node:fs/promises';
import { fileKind } from '../memory/file-kind.js';
import { SUBMODULE_MODE, SYMLINK_MODE } from './blob-version.js';
import type { GitPath } from './git-path.js';
import { runGit } from './git-runner.js';
import type { ObjectFormat } from './repository.js';

/** One working-tree file as git would store it, or why it could not be read. */
export type WorktreeRead =
  | {
      readonly ok: true;
      readonly mode: string;
      readonly blobSha: string;
      readonly size: number;
      /** The contents; absent for symlinks, submodules and files over the read limit. */
      readonly bytes?: Buffer;
    }
  | { readonly ok: false; readonly reason: string };

export interface WorktreeRoot {
  /** The working tree's real path (symlinks in it resolved), the boundary no read may cross. */
  readonly realPath: string;
  readonly objectFormat: ObjectFormat;
  readonly maxBytes: number;
}

/** Windows has no O_NOFOLLOW; there the lstat check is what stands between us and a link. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
/** A FIFO swapped in after the lstat must not block the open: its fstat then refuses it. */
const NON_BLOCKING = constants.O_NONBLOCK ?? 0;
const HASH_CHUNK = 1024 * 1024;

/**
 * Reads a tracked path from the working tree without ever following a symlink and without
 * leaving the repository: a symlink's content is its target string (mode 120000), a file is
 * opened with O_NOFOLLOW, and a path whose parent folder resolves outside the working tree
 * (a folder replaced by a link) is refused. The blob id is git's (`blob <size>\0<bytes>`)
 * over the bytes on disk; clean filters (autocrlf, LFS) are not applied.
 */
export async function readWorktreeFile(
  root: WorktreeRoot,
  path: GitPath,
  gitMode: string,
): Promise<WorktreeRead> {
  try {
    return await readWithoutFollowing(root, path, gitMode);
  } catch (error) {
    // A file that changes under us (EIO, ENOENT mid-read) makes the change incomplete, not wrong.
    const detail =
      error instanceof Error
        ? ('code' in error && String(error.code)) || error.message
        : String(error);
    return refused(`reading it failed (${detail})`);
  }
}

async function readWithoutFollowing(
  root: WorktreeRoot,
  path: GitPath,
  gitMode: string,
): Promise<WorktreeRead> {
  if (!isPlainRelative(path.text)) return refused('its path leaves the working tree');
  const full = Buffer.concat([Buffer.from(`${root.realPath}/`), path.bytes]);
  const parentProblem = await checkParent(root.realPath, path.bytes);
  if (parentProblem) return refused(parentProblem);
  let info: Stats;
  try {
    info = await lstat(full);
  } catch {
    return refused('it could not be found (changed while AUREUS was reading?)');
  }
  if (info.isSymbolicLink()) {
    const target = await readlink(full, { encoding: 'buffer' });
    return {
      ok: true,
      mode: SYMLINK_MODE,
      blobSha: hashBlob(root.objectFormat, target),
      size: target.length,
    };
  }
  if (info.isDirectory() && gitMode === SUBMODULE_MODE) return readSubmoduleHead(full);
  if (!info.isFile()) return refused(`it is ${fileKind(info)}, not a regular file`);
  return readRegularFile(root, full, gitMode);
}

async function readRegularFile(
  root: WorktreeRoot,
  full: Buffer,
  gitMode: string,
): Promise<WorktreeRead> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(full, constants.O_RDONLY | NO_FOLLOW | NON_BLOCKING);
  } catch {
    return refused('it could not be opened (replaced by a link, or not readable)');
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return refused(`it is ${fileKind(info)}, not a regular file`);
    const mode =
      gitMode === '100644' || gitMode === '100755'
        ? gitMode
        : (info.mode & 0o100) !== 0
          ? '100755'
          : '100644';
    if (info.size > root.maxBytes) {
      const blobSha = await hashOpenFile(root.objectFormat, handle, info.size);
      if (blobSha === undefined) return refused('it changed size while AUREUS was reading it');
      return { ok: true, mode, blobSha, size: info.size };
    }
    const bytes = await readExactly(handle, info.size);
    if (bytes === undefined) return refused('it changed size while AUREUS was reading it');
    return {
      ok: true,
      mode,
      blobSha: hashBlob(root.objectFormat, bytes),
      size: bytes.length,
      bytes,
    };
  } finally {
    await handle.close();
  }
}

/** A checked-out submodule's HEAD, the commit its gitlink would record. */
async function readSubmoduleHead(full: Buffer): Promise<WorktreeRead> {
  const folder = full.toString('utf8');
  // Without its own .git, git would answer for the superproject instead.
  const hasGit = await lstat(`${folder}/.git`).then(
    () => true,
    () => false,
  );
  if (!hasGit) return refused('it is a submodule that is not checked out');
  const answer = await runGit(folder, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {
    okExitCodes: [0, 1],
  });
  const sha = answer.stdout.toString('utf8').trim();
  if (answer.exitCode !== 0 || sha === '')
    return refused('its submodule has no commit checked out');
  return { ok: true, mode: SUBMODULE_MODE, blobSha: sha, size: 0 };
}

/** The id git gives a blob with these bytes. */
export function hashBlob(format: ObjectFormat, bytes: Buffer): string {
  return createHash(format).update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * The file's `size` bytes, or undefined when it holds more or fewer by the time it is read:
 * what grows while read (a log being written) is never read without end.
 */
async function readExactly(
  handle: Awaited<ReturnType<typeof open>>,
  size: number,
): Promise<Buffer | undefined> {
  const buffer = Buffer.alloc(size + 1);
  let filled = 0;
  while (filled <= size) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === size ? buffer.subarray(0, size) : undefined;
}

/** Hashes exactly `size` bytes in chunks; undefined if the file is shorter than it said. */
async function hashOpenFile(
  format: ObjectFormat,
  handle: Awaited<ReturnType<typeof open>>,
  size: number,
): Promise<string | undefined> {
  const hash = createHash(format).update(`blob ${size}\0`);
  const buffer = Buffer.alloc(Math.min(HASH_CHUNK, size));
  let position = 0;
  while (position < size) {
    const { bytesRead } = await handle.read(
      buffer,
      0,
      Math.min(buffer.length, size - position),
      position,
    );
    if (bytesRead === 0) return undefined;
    hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return hash.digest('hex');
}

/** git only records normalised relative paths; anything else is refused, not resolved. */
function isPlainRelative(path: string): boolean {
  if (path === '' || path.startsWith('/')) return false;
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/**
 * Why the folder holding the path cannot be trusted, or undefined when it resolves to exactly
 * where it should be inside the working tree (no folder on the way is a symlink).
 */
async function checkParent(realRoot: string, path: Buffer): Promise<string | undefined> {
  const slash = path.lastIndexOf(0x2f);
  if (slash === -1) return undefined;
  const expected = Buffer.concat([Buffer.from(`${realRoot}/`), path.subarray(0, slash)]);
  try {
    const actual = await realpath(expected, { encoding: 'buffer' });
    if (actual.equals(expected)) return undefined;
    return 'a folder on its path is a symbolic link, which AUREUS does not follow';
  } catch {
    return 'its folder could not be found (changed while AUREUS was reading?)';
  }
}

function refused(reason: string): WorktreeRead {
  return { ok: false, reason };
}
