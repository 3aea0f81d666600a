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
  return folderTreesOf(entries, sink)?.ids.get('');
}

/** The trees of a listing: each folder's tree id by its path, the root's under ''. */
export interface FolderTrees {
  readonly ids: ReadonlyMap<string, string>;
}

/**
 * As treeObjectsOf, with each folder's tree id by path, and the ids of `earlier` (the trees of
 * another listing) taken for the folders `unchanged` says hold the same entries as they held
 * there, whatever lies below them: their trees are neither computed nor handed to `sink` again.
 * A folder of that listing is unchanged when no path below it was added, removed, or given
 * another mode or blob since; the caller that knows what changed says so.
 */
export function folderTreesOf(
  entries: readonly TreeEntry[],
  sink: TreeObjectSink,
  earlier?: { readonly trees: FolderTrees; readonly unchanged: (folder: string) => boolean },
): FolderTrees | undefined {
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
  const ids = new Map<string, string>();
  const kept = (path: string): string | undefined =>
    earlier?.unchanged(path) ? earlier.trees.ids.get(path) : undefined;
  folderId(root, '', sink, ids, kept);
  return { ids };
}

/**
 * A tree object: entries sorted as git sorts them, a folder's name compared with a `/` after it.
 * A folder `kept` gives an id for keeps it, and so do the folders below it.
 */
function folderId(
  folder: Folder,
  path: string,
  sink: TreeObjectSink,
  ids: Map<string, string>,
  kept: (path: string) => string | undefined,
): string {
  const known = kept(path);
  if (known !== undefined) {
    keepBelow(folder, path, ids, kept);
    ids.set(path, known);
    return known;
  }
  const items = [
    ...[...folder.files].map(([name, entry]) => ({
      entry: Buffer.from(`${entry.mode} ${name}\0`),
      sortKey: Buffer.from(name),
      id: entry.blobSha,
    })),
    ...[...folder.folders].map(([name, inner]) => ({
      entry: Buffer.from(`40000 ${name}\0`),
      sortKey: Buffer.from(`${name}/`),
      id: folderId(inner, path === '' ? name : `${path}/${name}`, sink, ids, kept),
    })),
  ].sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));
  const body = Buffer.concat(items.flatMap(({ entry, id }) => [entry, Buffer.from(id, 'hex')]));
  const id = createHash('sha1').update(`tree ${body.length}\0`).update(body).digest('hex');
  sink(id, body);
  ids.set(path, id);
  return id;
}

/** The ids of the folders below a kept folder, which are as they were too. */
function keepBelow(
  folder: Folder,
  path: string,
  ids: Map<string, string>,
  kept: (path: string) => string | undefined,
): void {
  for (const [name, inner] of folder.folders) {
    const below = path === '' ? name : `${path}/${name}`;
    const id = kept(below);
    // Not in the earlier trees (it cannot be, below a folder that held the same): left out,
    // the next listing computes it.
    if (id === undefined) continue;
    ids.set(below, id);
    keepBelow(inner, below, ids, kept);
  }
}
