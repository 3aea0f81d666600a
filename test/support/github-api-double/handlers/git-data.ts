import type { Identity } from '../auth.js';
import {
  actor,
  apiRepoUrl,
  bodyAs,
  failure,
  type Handler,
  type HandlerContext,
  json,
  notFound,
  repoOf,
  stringParam,
} from '../context.js';
import { gitCommitObject, nodeId, wrappedBase64 } from '../github-objects.js';
import { isSha, type Signature, type TreeEntry } from '../object-store.js';
import { timestamp } from '../state.js';
import { editTree, type TreeEdit } from '../tree-edit.js';

/** The API spells a tree's mode `040000`. */
function apiMode(mode: string): string {
  return mode === '40000' ? '040000' : mode;
}

export function treeEntryObject(
  context: HandlerContext,
  path: string,
  entry: TreeEntry,
): Record<string, unknown> {
  const api = apiRepoUrl(context);
  return {
    path,
    mode: apiMode(entry.mode),
    type: entry.type,
    sha: entry.sha,
    ...(entry.type === 'blob'
      ? { size: entry.size ?? 0, url: `${api}/git/blobs/${entry.sha}` }
      : {}),
    ...(entry.type === 'tree' ? { url: `${api}/git/trees/${entry.sha}` } : {}),
  };
}

function treeResponse(
  context: HandlerContext,
  sha: string,
  entries: readonly { path: string; entry: TreeEntry }[],
): Record<string, unknown> {
  const limit = context.world.maxTreeEntries;
  return {
    sha,
    url: `${apiRepoUrl(context)}/git/trees/${sha}`,
    tree: entries.slice(0, limit).map(({ path, entry }) => treeEntryObject(context, path, entry)),
    truncated: entries.length > limit,
  };
}

const getBlob: Handler = (context) => {
  const repo = repoOf(context);
  const sha = stringParam(context, 'file_sha');
  const content = repo.store.readBlob(sha);
  if (content === undefined) return notFound(context);
  return json(200, {
    sha,
    node_id: nodeId('Blob', sha),
    size: content.length,
    url: `${apiRepoUrl(context)}/git/blobs/${sha}`,
    content: wrappedBase64(content),
    encoding: 'base64',
  });
};

const getTree: Handler = (context) => {
  const repo = repoOf(context);
  // GitHub takes a tree id, a commit id or a branch or tag name here.
  const named = repo.resolve(stringParam(context, 'tree_sha'));
  if (named === undefined) return notFound(context);
  const sha = repo.store.typeOf(named) === 'commit' ? repo.store.readCommit(named)?.tree : named;
  if (sha === undefined || repo.store.typeOf(sha) !== 'tree') return notFound(context);
  // "Setting this parameter to any value returns the objects or subtrees referenced by the tree."
  if (context.params.recursive !== undefined) {
    const entries = repo.store.readTreeRecursive(sha) ?? [];
    return json(200, treeResponse(context, sha, entries));
  }
  const entries = (repo.store.readTree(sha) ?? []).map((entry) => ({ path: entry.name, entry }));
  return json(200, treeResponse(context, sha, entries));
};

function refObject(context: HandlerContext, name: string, sha: string): Record<string, unknown> {
  const api = apiRepoUrl(context);
  const type = repoOf(context).store.typeOf(sha) ?? 'commit';
  const plural = type === 'tag' ? 'tags' : `${type}s`;
  return {
    ref: name,
    node_id: nodeId('Ref', `${repoOf(context).fullName}:${name}`),
    url: `${api}/git/${name}`,
    object: { type, sha, url: `${api}/git/${plural}/${sha}` },
  };
}

/** `heads/main` (as the path gives it) or `refs/heads/main`, to the stored name. */
function qualified(ref: string): string {
  return ref.startsWith('refs/') ? ref : `refs/${ref}`;
}

const getRef: Handler = (context) => {
  const name = qualified(stringParam(context, 'ref'));
  const sha = repoOf(context).refs.get(name);
  return sha === undefined ? notFound(context) : json(200, refObject(context, name, sha));
};

/** `git/list-matching-refs`: every ref whose full name starts with `refs/<ref>`, sorted. */
const listMatchingRefs: Handler = (context) => {
  const prefix = qualified(stringParam(context, 'ref'));
  const refs = [...repoOf(context).refs]
    .filter(([name]) => name.startsWith(prefix))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return json(
    200,
    refs.map(([name, sha]) => refObject(context, name, sha)),
  );
};

const createRef: Handler = (context) => {
  const repo = repoOf(context);
  const { ref, sha } = bodyAs<{ ref: string; sha: string }>(context);
  if (!/^refs\/[^/]+\/.+/.test(ref)) {
    return failure(
      context,
      422,
      'Reference name must start with "refs/" and contain at least three slash-separated components.',
      { invalid: true },
    );
  }
  if (repo.refs.has(ref)) return failure(context, 422, 'Reference already exists');
  if (repo.store.typeOf(sha) === undefined) {
    return failure(context, 422, 'Object does not exist', { invalid: true });
  }
  repo.refs.set(ref, sha);
  const object = refObject(context, ref, sha);
  return json(201, object, { location: String(object.url) });
};

const updateRef: Handler = (context) => {
  const repo = repoOf(context);
  const name = qualified(stringParam(context, 'ref'));
  const { sha, force } = bodyAs<{ sha: string; force?: boolean }>(context);
  const current = repo.refs.get(name);
  if (current === undefined) return failure(context, 422, 'Reference does not exist');
  if (repo.store.typeOf(sha) === undefined) {
    return failure(context, 422, 'Object does not exist', { invalid: true });
  }
  // A branch only moves forward unless the caller forces it, exactly like `git push`.
  if (force !== true && !repo.store.isAncestor(current, sha)) {
    return failure(context, 422, 'Update is not a fast forward');
  }
  repo.refs.set(name, sha);
  return json(200, refObject(context, name, sha));
};

const createBlob: Handler = (context) => {
  const { content, encoding = 'utf-8' } = bodyAs<{ content: string; encoding?: string }>(context);
  if (encoding !== 'utf-8' && encoding !== 'utf8' && encoding !== 'base64') {
    return failure(context, 422, `encoding must be "utf-8" or "base64", not "${encoding}"`, {
      invalid: true,
    });
  }
  const bytes = Buffer.from(content, encoding === 'base64' ? 'base64' : 'utf8');
  const sha = repoOf(context).store.putBlob(bytes);
  const url = `${apiRepoUrl(context)}/git/blobs/${sha}`;
  return json(201, { url, sha }, { location: url });
};

interface TreeItem {
  path?: string;
  mode?: string;
  type?: TreeEntry['type'];
  sha?: string | null;
  content?: string;
}

const createTree: Handler = (context) => {
  const repo = repoOf(context);
  const { tree, base_tree: baseTreeName } = bodyAs<{ tree: TreeItem[]; base_tree?: string }>(
    context,
  );
  let baseTree: string | undefined;
  if (baseTreeName !== undefined) {
    const type = repo.store.typeOf(baseTreeName);
    baseTree = type === 'commit' ? repo.store.readCommit(baseTreeName)?.tree : baseTreeName;
    if (type === undefined || baseTree === undefined) {
      return failure(context, 422, 'Invalid tree info: base_tree does not exist', {
        invalid: true,
      });
    }
  }
  const edits: TreeEdit[] = [];
  for (const item of tree) {
    const { path, mode, type } = item;
    if (path === undefined || mode === undefined || type === undefined) {
      return failure(context, 422, 'Invalid tree info: path, mode and type are required', {
        invalid: true,
      });
    }
    if (item.content !== undefined && item.sha !== undefined) {
      return failure(context, 422, 'Invalid tree info: only one of sha and content may be given', {
        invalid: true,
      });
    }
    if (item.sha === null) {
      edits.push({ path, entry: null });
      continue;
    }
    const sha =
      item.content !== undefined ? repo.store.putBlob(Buffer.from(item.content)) : item.sha;
    const known =
      sha !== undefined && (type === 'commit' ? isSha(sha) : repo.store.typeOf(sha) === type);
    if (sha === undefined || !known) {
      return failure(context, 422, `Invalid tree info: tree.sha ${sha ?? ''} is not a ${type}`, {
        invalid: true,
      });
    }
    edits.push({ path, entry: { mode, type, sha } });
  }
  const sha = editTree(repo.store, baseTree, edits);
  const entries = (repo.store.readTree(sha) ?? []).map((entry) => ({ path: entry.name, entry }));
  return json(201, treeResponse(context, sha, entries));
};

export function signatureOf(
  given: { name: string; email: string; date?: string } | undefined,
  fallback: Identity,
  now: Date,
): Signature {
  return {
    name: given?.name ?? fallback.name ?? fallback.login,
    email:
      given?.email ?? fallback.email ?? `${fallback.id}+${fallback.login}@users.noreply.github.com`,
    date: timestamp(given?.date === undefined ? now : new Date(given.date)),
  };
}

const createCommit: Handler = (context) => {
  const repo = repoOf(context);
  const request = bodyAs<{
    message: string;
    tree: string;
    parents?: string[];
    author?: { name: string; email: string; date?: string };
    committer?: { name?: string; email?: string; date?: string };
  }>(context);
  if (repo.store.typeOf(request.tree) !== 'tree') {
    return failure(context, 422, 'Tree SHA does not exist', { invalid: true });
  }
  const parents = request.parents ?? [];
  if (parents.some((parent) => repo.store.typeOf(parent) !== 'commit')) {
    return failure(context, 422, 'Parent SHA does not exist or is not a commit object', {
      invalid: true,
    });
  }
  const now = context.world.now();
  const author = signatureOf(request.author, actor(context), now);
  const committer =
    request.committer?.name !== undefined && request.committer.email !== undefined
      ? signatureOf(
          {
            name: request.committer.name,
            email: request.committer.email,
            ...datePart(request.committer),
          },
          actor(context),
          now,
        )
      : { ...author, date: timestamp(now) };
  const commit = { tree: request.tree, parents, author, committer, message: request.message };
  const sha = repo.store.putCommit(commit);
  const object = gitCommitObject(context.world.apiUrl, repo.fullName, sha, commit);
  return json(201, object, { location: String(object.url) });
};

function datePart(signature: { date?: string }): { date?: string } {
  return signature.date === undefined ? {} : { date: signature.date };
}

const getCommit: Handler = (context) => {
  const repo = repoOf(context);
  const sha = stringParam(context, 'commit_sha');
  const commit = repo.store.readCommit(sha);
  if (commit === undefined) return notFound(context);
  return json(200, gitCommitObject(context.world.apiUrl, repo.fullName, sha, commit));
};

export const gitDataHandlers: Record<string, Handler> = {
  'git/get-blob': getBlob,
  'git/get-tree': getTree,
  'git/get-ref': getRef,
  'git/list-matching-refs': listMatchingRefs,
  'git/create-ref': createRef,
  'git/update-ref': updateRef,
  'git/create-blob': createBlob,
  'git/create-tree': createTree,
  'git/create-commit': createCommit,
  'git/get-commit': getCommit,
};
