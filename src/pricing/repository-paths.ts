/** Repository paths use `/` whatever the platform (the Change's contract), so no `node:path`. */

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The folder of a repository path, '' for the root. */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}
