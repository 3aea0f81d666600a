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
