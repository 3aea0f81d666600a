import type { ObjectStore, TreeEntry } from './object-store.js';

/** One change to a tree: a path (slashes allowed) and the entry to put there, or null to remove. */
export interface TreeEdit {
  readonly path: string;
  readonly entry: {
    readonly mode: string;
    readonly type: TreeEntry['type'];
    readonly sha: string;
  } | null;
}

interface PendingEdit {
  readonly segments: readonly string[];
  readonly entry: TreeEdit['entry'];
}

/** The API writes a tree's mode as `040000`; git stores `40000`. */
export function gitMode(mode: string): string {
  return mode === '040000' ? '40000' : mode;
}

function applyEdits(
  store: ObjectStore,
  treeSha: string | undefined,
  edits: readonly PendingEdit[],
): string | null {
  const entries = new Map<string, TreeEntry>();
  for (const entry of treeSha === undefined ? [] : (store.readTree(treeSha) ?? [])) {
    entries.set(entry.name, entry);
  }
  const deeper = new Map<string, PendingEdit[]>();
  for (const edit of edits) {
    const [head = '', ...rest] = edit.segments;
    if (rest.length === 0) {
      if (edit.entry === null) entries.delete(head);
      else entries.set(head, { name: head, ...edit.entry, mode: gitMode(edit.entry.mode) });
    } else {
      const list = deeper.get(head) ?? [];
      list.push({ segments: rest, entry: edit.entry });
      deeper.set(head, list);
    }
  }
  for (const [name, childEdits] of deeper) {
    const existing = entries.get(name);
    const child = applyEdits(
      store,
      existing?.type === 'tree' ? existing.sha : undefined,
      childEdits,
    );
    if (child === null) entries.delete(name);
    else entries.set(name, { name, mode: '40000', type: 'tree', sha: child });
  }
  // Git has no empty subtrees: removing a folder's last file removes the folder.
  if (entries.size === 0) return null;
  return store.putTree([...entries.values()]);
}

/** Applies edits to a tree (or to nothing) and returns the new root tree's id. */
export function editTree(
  store: ObjectStore,
  baseTree: string | undefined,
  edits: readonly TreeEdit[],
): string {
  const pending = edits.map((edit) => ({
    segments: edit.path.split('/').filter((segment) => segment !== ''),
    entry: edit.entry,
  }));
  return applyEdits(store, baseTree, pending) ?? store.putTree([]);
}

/** The entry at a path below a tree, walking subtrees. */
export function entryAt(store: ObjectStore, treeSha: string, path: string): TreeEntry | undefined {
  const segments = path.split('/').filter((segment) => segment !== '');
  let current: TreeEntry | undefined;
  let tree: string | undefined = treeSha;
  for (const segment of segments) {
    if (tree === undefined) return undefined;
    current = store.readTree(tree)?.find((entry) => entry.name === segment);
    if (current === undefined) return undefined;
    tree = current.type === 'tree' ? current.sha : undefined;
  }
  return current;
}
