import type * as ts from 'typescript';

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
