/**
 * Repository paths are relative to the root and use `/` whatever the platform (the Change's
 * contract), so no `node:path`. The root folder is `''`.
 */

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

export function joinPath(folder: string, relative: string): string {
  return folder === '' ? relative : `${folder}/${relative}`;
}

/** The folder and its ancestors, the repository root first. */
export function foldersDownTo(folder: string): string[] {
  if (folder === '') return [''];
  const parts = folder.split('/');
  return ['', ...parts.map((_, index) => parts.slice(0, index + 1).join('/'))];
}

/** Whether `path` is `suffix` or ends with `/suffix`. */
export function hasPathSuffix(path: string, suffix: string): boolean {
  return path === suffix || path.endsWith(`/${suffix}`);
}

/** Where a module or type was looked for: one file, several (not guessed between), or none. */
export type Located =
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'ambiguous' }
  | { readonly kind: 'absent' };

export function locatedAmong(files: readonly string[]): Located {
  const [only, ...others] = files;
  if (only === undefined) return { kind: 'absent' };
  return others.length === 0 ? { kind: 'file', file: only } : { kind: 'ambiguous' };
}

/** Paths grouped by a key (a file's base name), for suffix matching without a full scan. */
export function groupBy(
  paths: Iterable<string>,
  keyOf: (path: string) => string | undefined,
): ReadonlyMap<string, readonly string[]> {
  const groups = new Map<string, string[]>();
  for (const path of paths) {
    const key = keyOf(path);
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [path]);
    else group.push(path);
  }
  return groups;
}
