import type { Identity } from '../auth.js';
import {
  failure,
  type Handler,
  type HandlerContext,
  json,
  repoOf,
  stringParam,
} from '../context.js';
import { commitsBetween, type DiffFile, diffFiles, EMPTY_TREE, mergeBase } from '../diff.js';
import { diffEntry, MAX_LISTED_FILES } from '../diff-entries.js';
import { commitObject, fullRepositoryObject, HTML_URL, userObject } from '../github-objects.js';
import { paginate } from '../pagination.js';
import { syntheticId } from '../state.js';

/** `permission` is the legacy base role: maintain reads as write, triage as read. */
const BASE_ROLE: Record<string, string> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read',
  none: 'none',
};

const getRepository: Handler = (context) =>
  json(200, fullRepositoryObject(context.world.apiUrl, repoOf(context).info));

const getPermissionLevel: Handler = (context) => {
  const repo = repoOf(context);
  const login = stringParam(context, 'username');
  const collaborator = repo.collaborators.get(login.toLowerCase());
  // Someone the test never named: no role on a private repository, read on a public one.
  const role = collaborator?.role ?? (repo.info.private ? 'none' : 'read');
  const identity: Identity = collaborator?.identity ?? {
    login,
    id: syntheticId(login),
    type: 'User',
  };
  const permission = BASE_ROLE[role] ?? 'none';
  return json(200, {
    permission,
    role_name: role,
    user: {
      ...userObject(context.world.apiUrl, identity),
      permissions: {
        admin: permission === 'admin',
        maintain: role === 'admin' || role === 'maintain',
        push: permission === 'admin' || permission === 'write',
        triage: permission !== 'none',
        pull: permission !== 'none',
      },
      role_name: role,
    },
  });
};

function totals(files: readonly DiffFile[]): { additions: number; deletions: number } {
  return {
    additions: files.reduce((sum, file) => sum + file.additions, 0),
    deletions: files.reduce((sum, file) => sum + file.deletions, 0),
  };
}

function gitDirOf(context: HandlerContext): string | undefined {
  return repoOf(context).gitDir;
}

const getCommit: Handler = (context) => {
  const repo = repoOf(context);
  const ref = stringParam(context, 'ref');
  const sha = repo.resolveCommit(ref);
  const commit = sha === undefined ? undefined : repo.store.readCommit(sha);
  const gitDir = gitDirOf(context);
  if (sha === undefined || commit === undefined) {
    return failure(context, 422, `No commit found for SHA: ${ref}`);
  }
  const files =
    gitDir === undefined || repo.store.isCreated(sha)
      ? []
      : diffFiles(gitDir, commit.parents[0] ?? EMPTY_TREE, sha).slice(0, MAX_LISTED_FILES);
  // This endpoint pages its files 300 at a time; the commit itself repeats on every page.
  const page = paginate(files, context.params, context.url, context.world.apiUrl, {
    defaultPerPage: 300,
    maxPerPage: 300,
  });
  const options = {
    apiUrl: context.world.apiUrl,
    fullName: repo.fullName,
    commitSha: sha,
    truncatePatches: context.world.truncatePatches,
  };
  return json(
    200,
    commitObject(context.world.apiUrl, repo.fullName, sha, commit, {
      stats: totals(files),
      files: page.items.map((file) => diffEntry(file, options)),
    }),
    page.link === undefined ? undefined : { link: page.link },
  );
};

/**
 * Compare lists at most this many files ("up to 300 changed files for the entire comparison"),
 * on the first page only, and says nothing of the ones it leaves out.
 */
const MAX_COMPARE_FILES = 300;

const compareCommits: Handler = (context) => {
  const repo = repoOf(context);
  const gitDir = gitDirOf(context);
  const baseName = stringParam(context, 'base');
  const headName = stringParam(context, 'head');
  const base = repo.resolveCommit(baseName);
  const head = repo.resolveCommit(headName);
  if (gitDir === undefined || base === undefined || head === undefined) {
    return failure(context, 404, 'Not Found');
  }
  const mergeBaseSha = mergeBase(gitDir, base, head);
  if (mergeBaseSha === undefined) {
    return failure(context, 404, `No common ancestor between ${baseName} and ${headName}.`);
  }
  const ahead = commitsBetween(gitDir, mergeBaseSha, head);
  const behind = commitsBetween(gitDir, mergeBaseSha, base);
  const status =
    ahead.length === 0 && behind.length === 0
      ? 'identical'
      : behind.length === 0
        ? 'ahead'
        : ahead.length === 0
          ? 'behind'
          : 'diverged';
  const paged = context.url.searchParams.has('page') || context.url.searchParams.has('per_page');
  // Unpaged, GitHub sends the last 250 commits; paged, the files come on the first page only.
  const page = paged
    ? paginate(ahead, context.params, context.url, context.world.apiUrl)
    : { items: ahead.slice(-250), link: undefined };
  const firstPage =
    !paged || (typeof context.params.page === 'number' ? context.params.page : 1) === 1;
  const files = firstPage ? diffFiles(gitDir, mergeBaseSha, head).slice(0, MAX_COMPARE_FILES) : [];
  const api = context.world.apiUrl;
  const commitOf = (sha: string) => {
    const data = repo.store.readCommit(sha);
    if (data === undefined) throw new Error(`github-api-double: commit ${sha} vanished`);
    return commitObject(api, repo.fullName, sha, data);
  };
  const options = {
    apiUrl: api,
    fullName: repo.fullName,
    commitSha: head,
    truncatePatches: context.world.truncatePatches,
  };
  const spec = `${baseName}...${headName}`;
  return json(
    200,
    {
      url: `${api}/repos/${repo.fullName}/compare/${spec}`,
      html_url: `${HTML_URL}/${repo.fullName}/compare/${spec}`,
      permalink_url: `${HTML_URL}/${repo.fullName}/compare/${base}...${head}`,
      diff_url: `${HTML_URL}/${repo.fullName}/compare/${spec}.diff`,
      patch_url: `${HTML_URL}/${repo.fullName}/compare/${spec}.patch`,
      base_commit: commitOf(base),
      merge_base_commit: commitOf(mergeBaseSha),
      status,
      ahead_by: ahead.length,
      behind_by: behind.length,
      total_commits: ahead.length,
      commits: page.items.map(commitOf),
      files: files.map((file) => diffEntry(file, options)),
    },
    page.link === undefined ? undefined : { link: page.link },
  );
};

/** The filters `repos/list-commits` takes that the double does not apply: refused, never ignored. */
const UNSUPPORTED_LIST_FILTERS = ['path', 'author', 'committer', 'since', 'until'];

/**
 * `GET /repos/{owner}/{repo}/commits`: the commits reachable from `sha` (the default branch when
 * none), newest first, paged 30 at a time by default and at most 100. The walk is git's date
 * order: a commit is listed after every child that reached it, the newest committer date first,
 * so a linear history comes back parent after parent whatever its dates. Filters are refused.
 */
const listCommits: Handler = (context) => {
  const repo = repoOf(context);
  const filter = UNSUPPORTED_LIST_FILTERS.find((name) => context.url.searchParams.has(name));
  if (filter !== undefined)
    return failure(context, 422, `github-api-double: the ${filter} filter is not supported`);
  const named = typeof context.params.sha === 'string' ? context.params.sha : undefined;
  const start = repo.resolveCommit(named ?? repo.info.defaultBranch);
  if (start === undefined) return failure(context, 404, 'Not Found');
  const listed: string[] = [];
  const seen = new Set<string>([start]);
  const pending = [start];
  const dateOf = (sha: string) => repo.store.readCommit(sha)?.committer.date ?? '';
  while (pending.length > 0) {
    // The newest pending commit; the earliest queued among equals, so a child comes first.
    let pick = 0;
    for (let index = 1; index < pending.length; index++)
      if (dateOf(pending[index] ?? '') > dateOf(pending[pick] ?? '')) pick = index;
    const [sha = ''] = pending.splice(pick, 1);
    listed.push(sha);
    for (const parent of repo.store.readCommit(sha)?.parents ?? [])
      if (!seen.has(parent)) {
        seen.add(parent);
        pending.push(parent);
      }
  }
  const page = paginate(listed, context.params, context.url, context.world.apiUrl);
  const api = context.world.apiUrl;
  return json(
    200,
    page.items.map((sha) => {
      const data = repo.store.readCommit(sha);
      if (data === undefined) throw new Error(`github-api-double: commit ${sha} vanished`);
      return commitObject(api, repo.fullName, sha, data);
    }),
    page.link === undefined ? undefined : { link: page.link },
  );
};

export const repoHandlers: Record<string, Handler> = {
  'repos/get': getRepository,
  'repos/get-collaborator-permission-level': getPermissionLevel,
  'repos/get-commit': getCommit,
  'repos/compare-commits': compareCommits,
  'repos/list-commits': listCommits,
};
