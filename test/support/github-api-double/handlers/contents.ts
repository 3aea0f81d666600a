import {
  actor,
  apiRepoUrl,
  bodyAs,
  failure,
  type Handler,
  type HandlerContext,
  json,
  notFound,
  optionalString,
  repoOf,
  stringParam,
} from '../context.js';
import { gitCommitObject, HTML_URL, wrappedBase64 } from '../github-objects.js';
import type { TreeEntry } from '../object-store.js';
import { editTree, entryAt } from '../tree-edit.js';
import { signatureOf } from './git-data.js';

/** Above this size the contents API stops sending `content` (encoding `none`). */
const MAX_INLINE_BYTES = 1024 * 1024;

type ContentType = 'file' | 'dir' | 'symlink' | 'submodule';

function contentType(entry: TreeEntry): ContentType {
  if (entry.type === 'tree') return 'dir';
  if (entry.type === 'commit') return 'submodule';
  return entry.mode === '120000' ? 'symlink' : 'file';
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** The fields every contents object shares: name, path, sha, size, links. */
function contentBase(
  context: HandlerContext,
  path: string,
  entry: TreeEntry,
  ref: string,
): Record<string, unknown> {
  const repo = repoOf(context);
  const api = apiRepoUrl(context);
  const type = contentType(entry);
  const url = `${api}/contents/${encodePath(path)}?ref=${encodeURIComponent(ref)}`;
  const gitUrl =
    type === 'dir'
      ? `${api}/git/trees/${entry.sha}`
      : type === 'submodule'
        ? null
        : `${api}/git/blobs/${entry.sha}`;
  const htmlUrl =
    type === 'submodule'
      ? null
      : `${HTML_URL}/${repo.fullName}/${type === 'dir' ? 'tree' : 'blob'}/${ref}/${encodePath(path)}`;
  return {
    type,
    size: entry.size ?? repo.store.blobSize(entry.sha) ?? 0,
    name: path.slice(path.lastIndexOf('/') + 1),
    path,
    sha: entry.sha,
    url,
    git_url: gitUrl,
    html_url: htmlUrl,
    download_url:
      type === 'file' || type === 'symlink'
        ? `https://raw.githubusercontent.com/${repo.fullName}/${ref}/${encodePath(path)}`
        : null,
    _links: { self: url, git: gitUrl, html: htmlUrl },
  };
}

/** The `url` a submodule's `.gitmodules` section gives, if the root has one. */
function submoduleUrl(context: HandlerContext, rootTree: string, path: string): string {
  const store = repoOf(context).store;
  const modules = entryAt(store, rootTree, '.gitmodules');
  const text = modules === undefined ? '' : (store.readBlob(modules.sha)?.toString('utf8') ?? '');
  for (const section of text.split(/^\[submodule /m)) {
    if (
      new RegExp(`^\\s*path\\s*=\\s*${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm').test(
        section,
      )
    ) {
      const url = /^\s*url\s*=\s*(\S+)\s*$/m.exec(section)?.[1];
      if (url !== undefined) return url;
    }
  }
  return `https://github.com/${repoOf(context).fullName}.git`;
}

const getContent: Handler = (context) => {
  const repo = repoOf(context);
  const ref = optionalString(context, 'ref') ?? repo.info.defaultBranch;
  const commitSha = repo.resolveCommit(ref);
  const commit = commitSha === undefined ? undefined : repo.store.readCommit(commitSha);
  if (commit === undefined) return failure(context, 404, `No commit found for the ref ${ref}`);
  const path = stringParam(context, 'path').replace(/^\/+|\/+$/g, '');
  const entry = entryAt(repo.store, commit.tree, path);
  if (entry === undefined) return notFound(context);
  const type = contentType(entry);
  if (type === 'dir') {
    const children = repo.store.readTree(entry.sha) ?? [];
    return json(
      200,
      children.map((child) => contentBase(context, `${path}/${child.name}`, child, ref)),
    );
  }
  const base = contentBase(context, path, entry, ref);
  if (type === 'submodule') {
    return json(200, { ...base, submodule_git_url: submoduleUrl(context, commit.tree, path) });
  }
  const bytes = repo.store.readBlob(entry.sha) ?? Buffer.alloc(0);
  if (type === 'symlink') return json(200, { ...base, target: bytes.toString('utf8') });
  const inline = bytes.length <= MAX_INLINE_BYTES;
  return json(200, {
    ...base,
    encoding: inline ? 'base64' : 'none',
    content: inline ? wrappedBase64(bytes) : '',
  });
};

interface PutBody {
  message: string;
  content: string;
  sha?: string;
  branch?: string;
  committer?: { name: string; email: string; date?: string };
  author?: { name: string; email: string; date?: string };
}

const createOrUpdateFile: Handler = (context) => {
  const repo = repoOf(context);
  const request = bodyAs<PutBody>(context);
  const path = stringParam(context, 'path').replace(/^\/+|\/+$/g, '');
  const branch = request.branch ?? repo.info.defaultBranch;
  const refName = `refs/heads/${branch}`;
  const head = repo.refs.get(refName);
  if (head === undefined && repo.refs.size > 0) {
    return failure(context, 404, `Branch ${branch} not found`);
  }
  const workflows = context.grant?.permissions.workflows;
  if (path.startsWith('.github/workflows/') && workflows !== 'write' && workflows !== 'admin') {
    return failure(
      context,
      403,
      `refusing to allow a GitHub App to create or update workflow \`${path}\` without \`workflows\` permission`,
      { forbidden: true },
    );
  }
  if (!/^[A-Za-z0-9+/=\s]*$/.test(request.content)) {
    return failure(context, 422, 'Invalid request.\n\ncontent is not valid Base64', {
      invalid: true,
    });
  }
  const parent = head === undefined ? undefined : repo.store.readCommit(head);
  const existing = parent === undefined ? undefined : entryAt(repo.store, parent.tree, path);
  if (existing !== undefined && request.sha === undefined) {
    return failure(context, 422, 'Invalid request.\n\n"sha" wasn\'t supplied.', { invalid: true });
  }
  // The optimistic lock of the contents API: the caller names the blob it read, and a writer
  // that read an older version (or a file since removed) is turned away with 409.
  if (request.sha !== undefined && existing?.sha !== request.sha) {
    return failure(context, 409, `${path} does not match ${request.sha}`);
  }
  const blob = repo.store.putBlob(Buffer.from(request.content, 'base64'));
  const tree = editTree(repo.store, parent?.tree, [
    { path, entry: { mode: existing?.mode ?? '100644', type: 'blob', sha: blob } },
  ]);
  const now = context.world.now();
  const author = signatureOf(request.author ?? request.committer, actor(context), now);
  const committer = signatureOf(request.committer ?? request.author, actor(context), now);
  const commit = {
    tree,
    parents: head === undefined ? [] : [head],
    author,
    committer,
    message: request.message,
  };
  const commitSha = repo.store.putCommit(commit);
  repo.refs.set(refName, commitSha);
  const entry: TreeEntry = { name: path, mode: '100644', type: 'blob', sha: blob };
  const { type: _type, ...content } = contentBase(context, path, entry, branch);
  return json(existing === undefined ? 201 : 200, {
    content: { ...content, type: 'file' },
    commit: gitCommitObject(context.world.apiUrl, repo.fullName, commitSha, commit),
  });
};

export const contentHandlers: Record<string, Handler> = {
  'repos/get-content': getContent,
  'repos/create-or-update-file-contents': createOrUpdateFile,
};
