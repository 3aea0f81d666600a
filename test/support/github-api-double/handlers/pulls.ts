import {
  actor,
  apiRepoUrl,
  bodyAs,
  type Handler,
  type HandlerContext,
  intParam,
  json,
  notFound,
  optionalString,
  repoOf,
  stringParam,
  validationFailed,
} from '../context.js';
import { commitsBetween, mergeBase } from '../diff.js';
import { diffEntry, MAX_LISTED_FILES } from '../diff-entries.js';
import { tryGitText } from '../git.js';
import { HTML_URL, nodeId, repositoryObject, userObject } from '../github-objects.js';
import { paginate } from '../pagination.js';
import { pullDiff } from '../pull-diff.js';
import {
  type PullRequest,
  type RepositoryInfo,
  repositoryKey,
  syntheticId,
  timestamp,
} from '../state.js';

/** The head repository: the base itself, a registered fork, or one made up from its name. */
function headRepository(context: HandlerContext, pull: PullRequest): Record<string, unknown> {
  const repo = repoOf(context);
  const api = context.world.apiUrl;
  const key = repositoryKey(pull.headOwner, pull.headRepo);
  if (key === repositoryKey(repo.info.owner, repo.info.repo))
    return repositoryObject(api, repo.info);
  const registered = context.world.repositories.get(key)?.info;
  const info: RepositoryInfo = registered ?? {
    owner: pull.headOwner,
    repo: pull.headRepo,
    id: syntheticId(key),
    private: repo.info.private,
    defaultBranch: repo.info.defaultBranch,
    ownerIdentity: { login: pull.headOwner, id: syntheticId(pull.headOwner), type: 'User' },
    createdAt: repo.info.createdAt,
  };
  return { ...repositoryObject(api, info), fork: true };
}

function pullObject(context: HandlerContext, pull: PullRequest): Record<string, unknown> {
  const repo = repoOf(context);
  const api = context.world.apiUrl;
  const url = `${apiRepoUrl(context)}/pulls/${pull.number}`;
  const issueUrl = `${apiRepoUrl(context)}/issues/${pull.number}`;
  const html = `${HTML_URL}/${repo.fullName}/pull/${pull.number}`;
  const files = pullDiff(repo, pull);
  const gitDir = repo.gitDir;
  const base = gitDir === undefined ? undefined : mergeBase(gitDir, pull.baseSha, pull.headSha);
  const commits =
    gitDir === undefined ? 0 : commitsBetween(gitDir, base ?? pull.baseSha, pull.headSha).length;
  const headOwner =
    context.world.repositories.get(repositoryKey(pull.headOwner, pull.headRepo))?.info
      .ownerIdentity ??
    (pull.headOwner.toLowerCase() === repo.info.owner.toLowerCase()
      ? repo.info.ownerIdentity
      : { login: pull.headOwner, id: syntheticId(pull.headOwner), type: 'User' as const });
  return {
    url,
    id: syntheticId(`${repo.fullName}#${pull.number}`),
    node_id: nodeId('PullRequest', `${repo.fullName}#${pull.number}`),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issueUrl,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${apiRepoUrl(context)}/pulls/comments{/number}`,
    comments_url: `${issueUrl}/comments`,
    statuses_url: `${apiRepoUrl(context)}/statuses/${pull.headSha}`,
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    user: userObject(api, pull.user),
    body: pull.body,
    labels: [],
    milestone: null,
    active_lock_reason: null,
    created_at: pull.createdAt,
    updated_at: pull.createdAt,
    // Merged (and closed) the moment it was registered: the double keeps no history of a pull request.
    closed_at: pull.state === 'closed' ? pull.createdAt : null,
    merged_at: pull.mergeCommitSha === null ? null : pull.createdAt,
    merge_commit_sha: pull.mergeCommitSha,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: {
      label: `${pull.headOwner}:${pull.headRef}`,
      ref: pull.headRef,
      sha: pull.headSha,
      user: userObject(api, headOwner),
      repo: headRepository(context, pull),
    },
    base: {
      label: `${repo.info.owner}:${pull.baseRef}`,
      ref: pull.baseRef,
      sha: pull.baseSha,
      user: userObject(api, repo.info.ownerIdentity),
      repo: repositoryObject(api, repo.info),
    },
    _links: {
      self: { href: url },
      html: { href: html },
      issue: { href: issueUrl },
      comments: { href: `${issueUrl}/comments` },
      review_comments: { href: `${url}/comments` },
      review_comment: { href: `${apiRepoUrl(context)}/pulls/comments{/number}` },
      commits: { href: `${url}/commits` },
      statuses: { href: `${apiRepoUrl(context)}/statuses/${pull.headSha}` },
    },
    author_association: pull.authorAssociation,
    auto_merge: null,
    draft: pull.draft,
    merged: pull.mergeCommitSha !== null,
    mergeable: true,
    rebaseable: true,
    mergeable_state: 'clean',
    merged_by: null,
    comments: [...repo.issueComments.values()].filter((c) => c.issueNumber === pull.number).length,
    review_comments: [...repo.reviewComments.values()].filter((c) => c.pullNumber === pull.number)
      .length,
    maintainer_can_modify: false,
    commits,
    additions: files.reduce((sum, file) => sum + file.additions, 0),
    deletions: files.reduce((sum, file) => sum + file.deletions, 0),
    changed_files: files.length,
  };
}

const getPull: Handler = (context) => {
  const pull = repoOf(context).pulls.get(intParam(context, 'pull_number'));
  return pull === undefined ? notFound(context) : json(200, pullObject(context, pull));
};

const listFiles: Handler = (context) => {
  const repo = repoOf(context);
  const pull = repo.pulls.get(intParam(context, 'pull_number'));
  if (pull === undefined) return notFound(context);
  // GitHub lists at most 3,000 files, whatever the page; `changed_files` keeps the real count.
  const files = pullDiff(repo, pull).slice(0, MAX_LISTED_FILES);
  const page = paginate(files, context.params, context.url, context.world.apiUrl);
  const options = {
    apiUrl: context.world.apiUrl,
    fullName: repo.fullName,
    commitSha: pull.headSha,
    truncatePatches: context.world.truncatePatches,
  };
  return json(
    200,
    page.items.map((file) => diffEntry(file, options)),
    page.link === undefined ? undefined : { link: page.link },
  );
};

/**
 * The pull requests merged as the commit, else those whose head it is (GitHub also lists those
 * that contain it among their commits, which the double does not look for).
 */
const listForCommit: Handler = (context) => {
  const repo = repoOf(context);
  const sha = repo.resolveCommit(stringParam(context, 'commit_sha'));
  if (sha === undefined) return notFound(context);
  const pulls = [...repo.pulls.values()];
  const merged = pulls.filter((pull) => pull.mergeCommitSha === sha);
  const listed = merged.length > 0 ? merged : pulls.filter((pull) => pull.headSha === sha);
  const page = paginate(listed, context.params, context.url, context.world.apiUrl);
  return json(
    200,
    page.items.map((pull) => pullObject(context, pull)),
    page.link === undefined ? undefined : { link: page.link },
  );
};

/**
 * `pulls/create` from a branch of the same repository. The head branch is read from git at
 * the time of the request, so a branch pushed to the repository's git folder after the double
 * started is found, as on GitHub; an unknown head or base is GitHub's 422.
 */
const createPull: Handler = (context) => {
  const repo = repoOf(context);
  const body = bodyAs<{
    title?: string;
    head: string;
    base: string;
    body?: string;
    draft?: boolean;
  }>(context);
  const branchSha = (name: string) =>
    repo.gitDir === undefined
      ? undefined
      : tryGitText(repo.gitDir, [
          'rev-parse',
          '--verify',
          '--quiet',
          `refs/heads/${name}^{commit}`,
        ])?.trim();
  const headSha = branchSha(body.head);
  const baseSha = branchSha(body.base);
  if (headSha === undefined || baseSha === undefined)
    return validationFailed(
      context,
      'PullRequest',
      headSha === undefined ? 'head' : 'base',
      'invalid',
    );
  const open = [...repo.pulls.values()].find(
    (pull) => pull.state === 'open' && pull.headRef === body.head && pull.baseRef === body.base,
  );
  if (open !== undefined)
    return validationFailed(
      context,
      'PullRequest',
      'head',
      `A pull request already exists for ${repo.info.owner}:${body.head}.`,
      // GitHub's answer to a request that was valid: a re-run's, not a bug of the caller's.
      { invalid: false },
    );
  const number = Math.max(0, ...repo.pulls.keys(), ...repo.issues.keys()) + 1;
  const pull: PullRequest = {
    number,
    baseSha,
    headSha,
    baseRef: body.base,
    headRef: body.head,
    headOwner: repo.info.owner,
    headRepo: repo.info.repo,
    title: body.title ?? body.head,
    body: body.body ?? null,
    user: actor(context),
    state: 'open',
    draft: body.draft === true,
    authorAssociation: 'NONE',
    createdAt: timestamp(context.world.now()),
    mergeCommitSha: null,
  };
  repo.pulls.set(number, pull);
  const object = pullObject(context, pull);
  return json(201, object, { location: String(object.url) });
};

/** `pulls/list`: by state (open by default), `head` (`owner:branch`) and `base`. */
const listPulls: Handler = (context) => {
  const repo = repoOf(context);
  const state = optionalString(context, 'state') ?? 'open';
  const head = optionalString(context, 'head');
  const base = optionalString(context, 'base');
  const pulls = [...repo.pulls.values()]
    .filter((pull) => state === 'all' || pull.state === state)
    .filter((pull) => head === undefined || `${pull.headOwner}:${pull.headRef}` === head)
    .filter((pull) => base === undefined || pull.baseRef === base)
    .sort((a, b) => b.number - a.number);
  const page = paginate(pulls, context.params, context.url, context.world.apiUrl);
  return json(
    200,
    page.items.map((pull) => pullObject(context, pull)),
    page.link === undefined ? undefined : { link: page.link },
  );
};

export const pullHandlers: Record<string, Handler> = {
  'pulls/list': listPulls,
  'pulls/get': getPull,
  'pulls/create': createPull,
  'pulls/list-files': listFiles,
  'repos/list-pull-requests-associated-with-commit': listForCommit,
};
