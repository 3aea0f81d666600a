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
