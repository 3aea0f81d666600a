import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { errnoCode } from '../memory/errno-code.js';

/**
 * Git's object store and refs, written without starting git, for a caller that takes many small
 * snapshots (the builder's checkpoints: a git process start costs more than the snapshot itself
 * on a busy machine). Only the plain layout is handled: SHA-1 objects, loose objects, files refs
 * with packed-refs. Anything else (a SHA-256 repository, reftable, an object directory set from
 * the environment, a symbolic ref in an odd place) answers undefined and the caller asks git.
 */
export interface GitDirs {
  /** The worktree's own git dir: HEAD and per-worktree state. */
  readonly gitDir: string;
  /** The common dir: objects, branch refs, packed-refs, config. */
  readonly commonDir: string;
}

/** Locates the git dirs of a working tree whose `.git` is a folder or a `gitdir:` file. */
export function gitDirsOf(tree: string): GitDirs | undefined {
  for (const name of ['GIT_DIR', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_INDEX_FILE'])
    if (process.env[name] !== undefined) return undefined;
  const dotGit = join(tree, '.git');
  let gitDir: string;
  try {
    const stats = lstatSync(dotGit);
    if (stats.isDirectory()) gitDir = dotGit;
    else if (stats.isFile()) {
      const match = /^gitdir: (.+)\n?$/.exec(readFileSync(dotGit, 'utf8'));
      if (match === null) return undefined;
      const named = match[1] as string;
      gitDir = isAbsolute(named) ? named : resolve(tree, named);
    } else return undefined;
    const commonFile = join(gitDir, 'commondir');
    const commonDir = existsSync(commonFile)
      ? resolve(gitDir, readFileSync(commonFile, 'utf8').trim())
      : gitDir;
    // Extensions change the object format or the ref storage: not this layout.
    const config = readFileSync(join(commonDir, 'config'), 'utf8');
    if (/objectformat|refstorage/i.test(config) || existsSync(join(commonDir, 'reftable')))
      return undefined;
    return { gitDir, commonDir };
  } catch (error) {
    if (errnoCode(error) !== undefined) return undefined;
    throw error;
  }
}

const SHA1 = /^[0-9a-f]{40}$/;

/**
 * The commit HEAD names: a detached id, or a branch under refs/heads/ (loose or packed).
 * Undefined when HEAD is anything else (unborn, a symbolic ref elsewhere): ask git.
 */
export function readHead(dirs: GitDirs): string | undefined {
  const head = readFileSync(join(dirs.gitDir, 'HEAD'), 'utf8').trim();
  if (SHA1.test(head)) return head;
  const match = /^ref: (refs\/heads\/\S+)$/.exec(head);
  if (match === null) return undefined;
  return readRef(dirs, match[1] as string);
}

function readRef(dirs: GitDirs, ref: string): string | undefined {
  try {
    const loose = readFileSync(join(dirs.commonDir, ref), 'utf8').trim();
    return SHA1.test(loose) ? loose : undefined;
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') return undefined;
  }
  return packedRef(dirs, ref);
}

function packedRef(dirs: GitDirs, ref: string): string | undefined {
  let packed: string;
  try {
    packed = readFileSync(join(dirs.commonDir, 'packed-refs'), 'utf8');
  } catch {
    return undefined;
  }
  for (const line of packed.split('\n')) {
    const [id, name] = line.split(' ');
    if (name === ref && id !== undefined && SHA1.test(id)) return id;
  }
  return undefined;
}

/** The id git gives an object of this type and body. */
export function objectId(type: 'blob' | 'tree' | 'commit', body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
}

/**
 * Writes an object as git writes a loose one (zlib of `<type> <size>\0<body>`, through a
 * temporary file renamed into place) unless a loose copy is there already; returns its id.
 * A copy in a pack is written again loose, which git allows.
 */
export function writeLooseObject(
  dirs: GitDirs,
  type: 'blob' | 'tree' | 'commit',
  body: Buffer,
  id = objectId(type, body),
): string {
  const folder = join(dirs.commonDir, 'objects', id.slice(0, 2));
  const path = join(folder, id.slice(2));
  if (existsSync(path)) return id;
  mkdirSync(folder, { recursive: true });
  const temporary = join(folder, `tmp_obj_${randomBytes(6).toString('hex')}`);
  writeFileSync(
    temporary,
    deflateSync(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body])),
    { mode: 0o444 },
  );
  renameSync(temporary, path);
  return id;
}

/**
 * Creates `ref` pointing at `id` only if it does not exist (loose or packed), as
 * `git update-ref <ref> <id> ''` does: through git's lock file, then a hard link that fails when
 * the ref appeared meanwhile. 'exists' when it does (or another writer holds its lock).
 */
export function createLooseRef(dirs: GitDirs, ref: string, id: string): 'created' | 'exists' {
  if (packedRef(dirs, ref) !== undefined) return 'exists';
  const path = join(dirs.commonDir, ref);
  const lock = `${path}.lock`;
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(lock, `${id}\n`, { flag: 'wx' });
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return 'exists';
    throw error;
  }
  try {
    linkSync(lock, path);
    return 'created';
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return 'exists';
    throw error;
  } finally {
    unlinkSync(lock);
  }
}
