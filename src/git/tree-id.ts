import { createHash } from 'node:crypto';

/** One entry of a recursive tree listing (`git ls-tree -r`): a file, a link or a submodule. */
export interface TreeEntry {
  readonly path: string;
  readonly mode: string;
  readonly blobSha: string;
}

interface Folder {
  readonly files: Map<string, TreeEntry>;
  readonly folders: Map<string, Folder>;
}

/**
 * The id git gives the tree of these entries (`git write-tree` of an index holding them),
 * computed without git, so a caller that knows what a tree should hold can tell whether it
 * does. Undefined for ids that are not SHA-1 (a SHA-256 repository): the caller asks git then.
 */
export function treeIdOf(entries: readonly TreeEntry[]): string | undefined {
  return treeObjectsOf(entries, () => undefined);
}

/** A tree object's id and body (without git's `tree <size>` header). */
export type TreeObjectSink = (id: string, body: Buffer) => void;

/**
 * As treeIdOf, also handing every tree object (the root and each folder) to `sink`, so a caller
 * can write the trees git would write for these entries.
 */
export function treeObjectsOf(
  entries: readonly TreeEntry[],
  sink: TreeObjectSink,
): string | undefined {
  if (entries.some((entry) => !/^[0-9a-f]{40}$/.test(entry.blobSha))) return undefined;
  const root: Folder = { files: new Map(), folders: new Map() };
  for (const entry of entries) {
    const names = entry.path.split('/');
    let folder = root;
    for (const name of names.slice(0, -1)) {
      let next = folder.folders.get(name);
      if (next === undefined) {
        next = { files: new Map(), folders: new Map() };
        folder.folders.set(name, next);
      }
      folder = next;
    }
    folder.files.set(names.at(-1) ?? '', entry);
  }
  return folderId(root, sink);
}

/** A tree object: entries sorted as git sorts them, a folder's name compared with a `/` after it. */
function folderId(folder: Folder, sink: TreeObjectSink): string {
  const items = [
    ...[...folder.files].map(([name, entry]) => ({
      entry: Buffer.from(`${entry.mode} ${name}\0`),
      sortKey: Buffer.from(name),
      id: entry.blobSha,
    })),
    ...[...folder.folders].map(([name, inner]) => ({
      entry: Buffer.from(`40000 ${name}\0`),
      sortKey: Buffer.from(`${name}/`),
      id: folderId(inner, sink),
    })),
  ].sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));
  const body = Buffer.concat(items.flatMap(({ entry, id }) => [entry, Buffer.from(id, 'hex')]));
  const id = createHash('sha1').update(`tree ${body.length}\0`).update(body).digest('hex');
  sink(id, body);
  return id;
}
