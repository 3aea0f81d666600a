import { posix } from 'node:path';
import type * as ts from 'typescript';

export interface SnapshotHostInput {
  /** Absolute and `/`-separated; a virtual folder, never read from the disk. */
  readonly rootDir: string;
  /** Every file of the snapshot, relative to the root. */
  readonly paths: Iterable<string>;
  /** Contents of the files TypeScript reads (tsconfig, jsconfig, package.json), by path. */
  readonly texts: ReadonlyMap<string, string>;
}

/**
 * TypeScript's file access for a snapshot held in memory (a commit read over the GitHub API):
 * which files and folders exist comes from the snapshot's paths, file contents from `texts`.
 * Nothing exists outside the root, so there is no node_modules unless the repository commits
 * one: bare imports then take the resolver's answer for packages that are not installed.
 * Symbolic links are plain files here (their targets are never read), so `realpath` is the
 * identity.
 */
export function createSnapshotHost(input: SnapshotHostInput): ts.ModuleResolutionHost {
  const root = input.rootDir.length > 1 ? input.rootDir.replace(/\/+$/, '') : input.rootDir;
  const files = new Set<string>();
  // Each folder that holds a file, with the names of its subfolders.
  const folders = new Map<string, Set<string>>([[root, new Set()]]);
  for (const path of input.paths) {
    files.add(`${root}/${path}`);
    let child: string | undefined;
    for (let folder = posix.dirname(path); ; folder = posix.dirname(folder)) {
      const absolute = folder === '.' ? root : `${root}/${folder}`;
      const seen = folders.has(absolute);
      const names = folders.get(absolute) ?? new Set<string>();
      if (child !== undefined) names.add(child);
      folders.set(absolute, names);
      // A folder seen before has its ancestors already (the root is there from the start).
      if (seen) break;
      child = posix.basename(folder);
    }
  }
  const clean = (path: string): string =>
    path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const relative = (path: string): string | undefined =>
    path.startsWith(`${root}/`) ? path.slice(root.length + 1) : undefined;
  return {
    fileExists: (path) => files.has(clean(path)),
    directoryExists: (path) => folders.has(clean(path)),
    getDirectories: (path) => [...(folders.get(clean(path)) ?? [])],
    readFile: (path) => {
      const inside = relative(clean(path));
      return inside === undefined ? undefined : input.texts.get(inside);
    },
    realpath: (path) => path,
    getCurrentDirectory: () => root,
    // Git paths are case-sensitive, whatever the machine the App runs on.
    useCaseSensitiveFileNames: true,
  };
}

/**
 * A snapshot's view of a clone for module resolution: the repository's own files as the
 * snapshot holds them (`snapshot`: which paths exist, the texts of its configs), and what the
 * snapshot cannot know from the disk (`disk`): installed packages under any `node_modules/`,
 * anything outside the repository, and the bytes of a repository file the snapshot lists but
 * holds no text for (a symbolic link, a file over the read limit).
 *
 * Without it, a commit other than the checkout was resolved against the files on disk: an
 * import of a file the checkout has but the commit lacks resolved, one the commit has but the
 * checkout lacks did not, and the answers were cached as the commit's.
 */
export function createOverlayHost(
  rootDir: string,
  snapshot: ts.ModuleResolutionHost,
  disk: ts.ModuleResolutionHost,
): ts.ModuleResolutionHost {
  const root = rootDir.length > 1 ? rootDir.replace(/\/+$/, '') : rootDir;
  const clean = (path: string): string =>
    path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  /** Whether the snapshot decides about `path`: inside the root and outside any node_modules. */
  const ownPath = (path: string): boolean => {
    const absolute = clean(path);
    if (absolute === root) return true;
    if (!absolute.startsWith(`${root}/`)) return false;
    return !`/${absolute.slice(root.length + 1)}/`.includes('/node_modules/');
  };
  const diskDirectories = disk.getDirectories;
  const snapshotDirectories = snapshot.getDirectories;
  return {
    fileExists: (path) => (ownPath(path) ? snapshot.fileExists(path) : disk.fileExists(path)),
    directoryExists: (path) =>
      (ownPath(path) ? snapshot.directoryExists : disk.directoryExists)?.(path) ?? false,
    readFile: (path) => {
      if (!ownPath(path)) return disk.readFile(path);
      const text = snapshot.readFile(path);
      return text === undefined && snapshot.fileExists(path) ? disk.readFile(path) : text;
    },
    ...(disk.realpath === undefined
      ? {}
      : {
          realpath: (path: string) => (ownPath(path) ? path : (disk.realpath?.(path) ?? path)),
        }),
    getCurrentDirectory: () => root,
    getDirectories: (path) => {
      if (!ownPath(path)) return diskDirectories?.(path) ?? [];
      const own = snapshotDirectories?.(path) ?? [];
      // An untracked node_modules/ beside the snapshot's folders: where its packages are found.
      const installed = (diskDirectories?.(path) ?? []).filter((name) => name === 'node_modules');
      return [...new Set([...own, ...installed])];
    },
    ...(snapshot.useCaseSensitiveFileNames === undefined
      ? {}
      : { useCaseSensitiveFileNames: snapshot.useCaseSensitiveFileNames }),
  };
}
