import { posix } from 'node:path';
import type { FileSystemHost, RuntimeDirEntry } from 'ts-morph';
import { ts } from 'ts-morph';
import { DEFAULT_MAX_BLOB_BYTES } from '../git/blob-limit.js';
import { type ContainedRead, containedDisk } from '../git/contained-file.js';

/**
 * The most the type check reads of one file besides the sources: the declarations of installed
 * packages can be large (@octokit/openapi-types ships 5.3 MB in one file), and the check is
 * only as good as the types it sees. Still a bound: nothing it reads grows without end.
 */
export const TYPE_CHECK_MAX_BYTES = 16 * 1024 * 1024;

/** ts-morph's file access, contained, and why a source of the project cannot be read. */
export interface ContainedFileSystem extends FileSystemHost {
  /**
   * Why the file at this absolute path is no source reflexion reads (a link, a FIFO, over the
   * blob read limit, outside the repository), or undefined when it is one.
   */
  sourceProblem(path: string): string | undefined;
}

/**
 * What ts-morph (and the TypeScript program under it) reads for `aureus simplify`, through the
 * contained disk: the repository's files and its installed packages, never a link the
 * repository commits, a FIFO, a device or anything outside it (contained-file.ts). What it
 * refuses does not exist for TypeScript: an import of it is a type error the patches are
 * checked against before and after alike. Reflexion never writes through here; its patches are
 * written by apply-patches.ts.
 */
export function containedFileSystem(root: string): ContainedFileSystem {
  const disk = containedDisk(root, TYPE_CHECK_MAX_BYTES);
  // A source's bytes, read to check it, wait here until ts-morph reads it: read once, kept once.
  const checked = new Map<string, ContainedRead>();
  const read = (path: string): ContainedRead => {
    const known = checked.get(path);
    checked.delete(path);
    return known ?? disk.read(path);
  };
  const readText = (path: string): string => {
    const found = read(path);
    // ENOENT is how ts-morph's callers recognise a file that is not there.
    if (!found.ok) throw Object.assign(new Error(`${path}: ${found.reason}`), { code: 'ENOENT' });
    return found.bytes.toString('utf8');
  };
  const writes = (): never => {
    throw new Error('reflexion does not write through the type checker (apply-patches.ts does)');
  };
  const entries = (folder: string): RuntimeDirEntry[] =>
    disk.list(folder).map(({ name, kind }) => ({
      name: posix.join(folder, name),
      isFile: kind === 'file',
      isDirectory: kind === 'folder',
      isSymlink: false,
    }));
  return {
    sourceProblem: (path) => {
      const found = disk.read(path);
      if (!found.ok) return found.reason;
      if (found.bytes.length > DEFAULT_MAX_BLOB_BYTES)
        return `it is over the read limit of ${DEFAULT_MAX_BLOB_BYTES} bytes`;
      checked.set(path, found);
      return undefined;
    },
    isCaseSensitive: () => ts.sys.useCaseSensitiveFileNames,
    readFileSync: readText,
    readFile: async (path) => readText(path),
    fileExistsSync: (path) => disk.kind(path) === 'file',
    fileExists: async (path) => disk.kind(path) === 'file',
    directoryExistsSync: (path) => disk.kind(path) === 'folder',
    directoryExists: async (path) => disk.kind(path) === 'folder',
    readDirSync: entries,
    realpathSync: (path) => disk.realpath(path),
    getCurrentDirectory: () => disk.root,
    // Reflexion adds its files one by one: nothing is found by pattern (tsconfig `include`).
    glob: async () => [],
    globSync: () => [],
    delete: writes,
    deleteSync: writes,
    writeFile: writes,
    writeFileSync: writes,
    mkdir: writes,
    mkdirSync: writes,
    move: writes,
    moveSync: writes,
    copy: writes,
    copySync: writes,
  };
}
