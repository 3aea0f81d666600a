import { createHash } from 'node:crypto';
import { gitBytes, gitText, nulRecords, tryGitText } from './git.js';

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface TreeEntry {
  readonly name: string;
  /** As git writes it: `100644`, `100755`, `120000`, `160000`, and `40000` for a tree. */
  readonly mode: string;
  readonly type: 'blob' | 'tree' | 'commit';
  readonly sha: string;
  /** Blobs only. */
  readonly size?: number;
}

export interface Signature {
  readonly name: string;
  readonly email: string;
  /** ISO 8601 in UTC without milliseconds, as GitHub prints it. */
  readonly date: string;
}

export interface CommitData {
  readonly tree: string;
  readonly parents: readonly string[];
  readonly author: Signature;
  readonly committer: Signature;
  readonly message: string;
}

const SHA = /^[0-9a-f]{40}$/;

export function isSha(text: string): boolean {
  return SHA.test(text);
}

function hashObject(type: ObjectType, body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
}

/** Git orders tree entries by name, comparing a subtree as if its name ended in `/`. */
function treeOrder(a: TreeEntry, b: TreeEntry): number {
  const key = (entry: TreeEntry) =>
    Buffer.from(entry.type === 'tree' ? `${entry.name}/` : entry.name);
  return Buffer.compare(key(a), key(b));
}

function signatureLine(role: string, signature: Signature): string {
  const seconds = Math.floor(Date.parse(signature.date) / 1000);
  return `${role} ${signature.name} <${signature.email}> ${seconds} +0000`;
}

function parseSignature(text: string): Signature {
  const match = /^(.*) <(.*)> (-?\d+) ([+-]\d{4})$/.exec(text);
  if (match === null) return { name: text, email: '', date: new Date(0).toISOString() };
  const date = new Date(Number(match[3]) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { name: match[1] ?? '', email: match[2] ?? '', date };
}

/** Parses `git cat-file commit` output. */
function parseCommit(raw: string): CommitData {
  const split = raw.indexOf('\n\n');
  const header = split === -1 ? raw : raw.slice(0, split);
  const message = split === -1 ? '' : raw.slice(split + 2);
  let tree = '';
  const parents: string[] = [];
  let author: Signature = parseSignature('');
  let committer: Signature = author;
  for (const line of header.split('\n')) {
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'tree') tree = value;
    else if (key === 'parent') parents.push(value);
    else if (key === 'author') author = parseSignature(value);
    else if (key === 'committer') committer = parseSignature(value);
  }
  return { tree, parents, author, committer, message };
}

/** Parses `git ls-tree -z -l` records: `<mode> <type> <sha> <size>\t<path>`. */
export function parseLsTree(text: string): TreeEntry[] {
  return nulRecords(text).map((record) => {
    const tab = record.indexOf('\t');
    const [mode = '', type = '', sha = '', size = '-'] = record.slice(0, tab).split(/ +/);
    const entryType = type === 'tree' || type === 'commit' ? type : 'blob';
    return {
      name: record.slice(tab + 1),
      mode: mode === '040000' ? '40000' : mode,
      type: entryType,
      sha,
      ...(size === '-' ? {} : { size: Number(size) }),
    };
  });
}

type Created =
  | { readonly type: 'blob'; readonly data: Buffer }
  | { readonly type: 'tree'; readonly data: readonly TreeEntry[] }
  | { readonly type: 'commit'; readonly data: CommitData };

/**
 * A repository's git objects: those created through the git data and contents APIs live here,
 * in memory, under the ids git itself would give them; anything else is read from the backing
 * repository (when there is one) with `git cat-file` / `git ls-tree`.
 */
export class ObjectStore {
  private readonly created = new Map<string, Created>();
  private readonly treeCache = new Map<string, readonly TreeEntry[]>();
  private readonly commitCache = new Map<string, CommitData>();
  /**
   * The types of backing objects git has named, by id: an id names the same object for good, so
   * a read of a blob the trees listed starts one git process, not two. Objects git does not have
   * are asked again (a push may bring them).
   */
  private readonly knownTypes = new Map<string, ObjectType>();

  constructor(readonly gitDir: string | undefined) {}

  putBlob(content: Buffer): string {
    const sha = hashObject('blob', content);
    this.created.set(sha, { type: 'blob', data: content });
    return sha;
  }

  putTree(entries: readonly TreeEntry[]): string {
    const sorted = [...entries].sort(treeOrder);
    const body = Buffer.concat(
      sorted.flatMap((entry) => [
        Buffer.from(`${entry.mode} ${entry.name}\0`),
        Buffer.from(entry.sha, 'hex'),
      ]),
    );
    const sha = hashObject('tree', body);
    this.created.set(sha, { type: 'tree', data: sorted });
    return sha;
  }

  putCommit(commit: CommitData): string {
    const lines = [
      `tree ${commit.tree}`,
      ...commit.parents.map((parent) => `parent ${parent}`),
      signatureLine('author', commit.author),
      signatureLine('committer', commit.committer),
    ];
    const sha = hashObject('commit', Buffer.from(`${lines.join('\n')}\n\n${commit.message}`));
    this.created.set(sha, { type: 'commit', data: commit });
    return sha;
  }

  /** Whether the object was made through the API rather than read from the backing repository. */
  isCreated(sha: string): boolean {
    return this.created.has(sha);
  }

  typeOf(sha: string): ObjectType | undefined {
    if (!isSha(sha)) return undefined;
    const created = this.created.get(sha);
    if (created !== undefined) return created.type;
    if (this.gitDir === undefined) return undefined;
    const known = this.knownTypes.get(sha);
    if (known !== undefined) return known;
    const type = tryGitText(this.gitDir, ['cat-file', '-t', sha])?.trim();
    if (type !== 'blob' && type !== 'tree' && type !== 'commit' && type !== 'tag') return undefined;
    this.knownTypes.set(sha, type);
    return type;
  }

  /** Remembers the types of a listing's blobs and trees (a gitlink's commit is not in the repository). */
  private listed(entries: readonly TreeEntry[]): readonly TreeEntry[] {
    for (const entry of entries) {
      if (entry.type !== 'commit') this.knownTypes.set(entry.sha, entry.type);
    }
    return entries;
  }

  readBlob(sha: string): Buffer | undefined {
    const created = this.created.get(sha);
    if (created !== undefined) return created.type === 'blob' ? created.data : undefined;
    if (this.gitDir === undefined || this.typeOf(sha) !== 'blob') return undefined;
    return gitBytes(this.gitDir, ['cat-file', 'blob', sha]);
  }

  blobSize(sha: string): number | undefined {
    const created = this.created.get(sha);
    if (created !== undefined) return created.type === 'blob' ? created.data.length : undefined;
    if (this.gitDir === undefined || !isSha(sha)) return undefined;
    const size = tryGitText(this.gitDir, ['cat-file', '-s', sha]);
    return size === undefined ? undefined : Number(size.trim());
  }

  /** A tree's direct entries, with blob sizes; a commit id reads its root tree. */
  readTree(sha: string): readonly TreeEntry[] | undefined {
    const created = this.created.get(sha);
    if (created !== undefined) {
      if (created.type === 'commit') return this.readTree(created.data.tree);
      if (created.type !== 'tree') return undefined;
      return created.data.map((entry) =>
        entry.type === 'blob' ? { ...entry, size: this.blobSize(entry.sha) ?? 0 } : entry,
      );
    }
    const cached = this.treeCache.get(sha);
    if (cached !== undefined) return cached;
    const type = this.typeOf(sha);
    if (this.gitDir === undefined || (type !== 'tree' && type !== 'commit')) return undefined;
    const entries = this.listed(parseLsTree(gitText(this.gitDir, ['ls-tree', '-z', '-l', sha])));
    this.treeCache.set(sha, entries);
    return entries;
  }

  /**
   * Every entry below a tree, subtrees included, with paths from the root: what
   * `git/get-tree?recursive=1` lists. A tree wholly in the backing repository is read with one
   * `git ls-tree -r -t`.
   */
  readTreeRecursive(sha: string): { path: string; entry: TreeEntry }[] | undefined {
    if (!this.created.has(sha) && this.gitDir !== undefined) {
      const type = this.typeOf(sha);
      if (type !== 'tree' && type !== 'commit') return undefined;
      const text = gitText(this.gitDir, ['ls-tree', '-r', '-t', '-z', '-l', sha]);
      return this.listed(parseLsTree(text)).map((entry) => ({
        path: entry.name,
        entry: { ...entry, name: entry.name.slice(entry.name.lastIndexOf('/') + 1) },
      }));
    }
    const root = this.readTree(sha);
    if (root === undefined) return undefined;
    const out: { path: string; entry: TreeEntry }[] = [];
    const walk = (entries: readonly TreeEntry[], prefix: string): void => {
      for (const entry of entries) {
        const path = `${prefix}${entry.name}`;
        out.push({ path, entry });
        if (entry.type === 'tree') walk(this.readTree(entry.sha) ?? [], `${path}/`);
      }
    };
    walk(root, '');
    return out;
  }

  readCommit(sha: string): CommitData | undefined {
    const created = this.created.get(sha);
    if (created !== undefined) return created.type === 'commit' ? created.data : undefined;
    const cached = this.commitCache.get(sha);
    if (cached !== undefined) return cached;
    if (this.gitDir === undefined || this.typeOf(sha) !== 'commit') return undefined;
    const commit = parseCommit(gitText(this.gitDir, ['cat-file', 'commit', sha]));
    this.commitCache.set(sha, commit);
    return commit;
  }

  /**
   * Whether `ancestor` is reachable from `descendant` (or equal): the fast-forward test of
   * `git/update-ref`. Walks API-made commits in memory and asks git about the rest.
   */
  isAncestor(ancestor: string, descendant: string): boolean {
    const seen = new Set<string>();
    const pending = [descendant];
    const askGit = this.gitDir !== undefined && !this.created.has(ancestor);
    while (pending.length > 0) {
      const sha = pending.pop();
      if (sha === undefined || seen.has(sha)) continue;
      seen.add(sha);
      if (sha === ancestor) return true;
      const created = this.created.get(sha);
      if (created?.type === 'commit') pending.push(...created.data.parents);
      else if (askGit && this.gitDir !== undefined && this.typeOf(sha) === 'commit') {
        const answer = tryGitText(this.gitDir, ['merge-base', '--is-ancestor', ancestor, sha]);
        if (answer !== undefined) return true;
      }
    }
    return false;
  }
}
