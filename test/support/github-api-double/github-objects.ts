/**
 * The JSON shapes GitHub answers with, built from the double's state. Field lists follow the
 * fixture's response schemas; `strictResponses` checks every one of them on the way out.
 */
import type { Identity } from './auth.js';
import type { CommitData, Signature } from './object-store.js';
import type { AppInfo, Installation, RepositoryInfo } from './state.js';

export const HTML_URL = 'https://github.com';

export function nodeId(kind: string, id: number | string): string {
  return Buffer.from(`${kind}:${id}`).toString('base64');
}

/** GitHub's `simple-user`. */
export function userObject(api: string, user: Identity): Record<string, unknown> {
  // GitHub escapes a bot's brackets (`github-actions%5Bbot%5D`) and links bots to their app.
  const login = encodeURIComponent(user.login);
  const url = `${api}/users/${login}`;
  const htmlUrl =
    user.type === 'Bot'
      ? `${HTML_URL}/apps/${encodeURIComponent(user.login.replace(/\[bot\]$/, ''))}`
      : `${HTML_URL}/${login}`;
  return {
    login: user.login,
    id: user.id,
    node_id: nodeId(user.type, user.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    gravatar_id: '',
    url,
    html_url: htmlUrl,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: user.type,
    user_view_type: 'public',
    site_admin: false,
  };
}

/**
 * GitHub's `public-user` (`users/get-by-username`): `simple-user` plus the profile. The double
 * keeps no profiles, so they are empty the way GitHub sends an unfilled one (`blog: ''`, the
 * rest null or 0); `name` is the identity's display name when it has one. `email` is the public
 * profile address, null unless chosen, so the identity's commit e-mail does not show here.
 */
export function publicUserObject(
  api: string,
  user: Identity,
  createdAt: string,
): Record<string, unknown> {
  return {
    ...userObject(api, user),
    name: user.name ?? null,
    company: null,
    blog: '',
    location: null,
    email: null,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: 0,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/** GitHub's `repository`, as embedded in pull requests. */
export function repositoryObject(api: string, info: RepositoryInfo): Record<string, unknown> {
  const full = `${info.owner}/${info.repo}`;
  const url = `${api}/repos/${full}`;
  const html = `${HTML_URL}/${full}`;
  return {
    id: info.id,
    node_id: nodeId('Repository', info.id),
    name: info.repo,
    full_name: full,
    license: null,
    forks: 0,
    permissions: { admin: false, maintain: false, push: false, triage: false, pull: true },
    owner: userObject(api, info.ownerIdentity),
    private: info.private,
    html_url: html,
    description: null,
    fork: false,
    url,
    archive_url: `${url}/{archive_format}{/ref}`,
    assignees_url: `${url}/assignees{/user}`,
    blobs_url: `${url}/git/blobs{/sha}`,
    branches_url: `${url}/branches{/branch}`,
    collaborators_url: `${url}/collaborators{/collaborator}`,
    comments_url: `${url}/comments{/number}`,
    commits_url: `${url}/commits{/sha}`,
    compare_url: `${url}/compare/{base}...{head}`,
    contents_url: `${url}/contents/{+path}`,
    contributors_url: `${url}/contributors`,
    deployments_url: `${url}/deployments`,
    downloads_url: `${url}/downloads`,
    events_url: `${url}/events`,
    forks_url: `${url}/forks`,
    git_commits_url: `${url}/git/commits{/sha}`,
    git_refs_url: `${url}/git/refs{/sha}`,
    git_tags_url: `${url}/git/tags{/sha}`,
    git_url: `git://github.com/${full}.git`,
    issue_comment_url: `${url}/issues/comments{/number}`,
    issue_events_url: `${url}/issues/events{/number}`,
    issues_url: `${url}/issues{/number}`,
    keys_url: `${url}/keys{/key_id}`,
    labels_url: `${url}/labels{/name}`,
    languages_url: `${url}/languages`,
    merges_url: `${url}/merges`,
    milestones_url: `${url}/milestones{/number}`,
    notifications_url: `${url}/notifications{?since,all,participating}`,
    pulls_url: `${url}/pulls{/number}`,
    releases_url: `${url}/releases{/id}`,
    ssh_url: `git@github.com:${full}.git`,
    stargazers_url: `${url}/stargazers`,
    statuses_url: `${url}/statuses/{sha}`,
    subscribers_url: `${url}/subscribers`,
    subscription_url: `${url}/subscription`,
    tags_url: `${url}/tags`,
    teams_url: `${url}/teams`,
    trees_url: `${url}/git/trees{/sha}`,
    clone_url: `${html}.git`,
    mirror_url: null,
    hooks_url: `${url}/hooks`,
    svn_url: html,
    homepage: null,
    language: null,
    forks_count: 0,
    stargazers_count: 0,
    watchers_count: 0,
    size: 0,
    default_branch: info.defaultBranch,
    open_issues_count: 0,
    is_template: false,
    topics: [],
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: info.private ? 'private' : 'public',
    pushed_at: info.createdAt,
    created_at: info.createdAt,
    updated_at: info.createdAt,
    allow_forking: true,
    web_commit_signoff_required: false,
    open_issues: 0,
    watchers: 0,
  };
}

/** GitHub's `full-repository` (`repos/get`). */
export function fullRepositoryObject(api: string, info: RepositoryInfo): Record<string, unknown> {
  const { permissions: _permissions, ...base } = repositoryObject(api, info);
  return { ...base, subscribers_count: 0, network_count: 0 };
}

/** GitHub's `integration` (a GitHub App). */
export function appObject(api: string, app: AppInfo): Record<string, unknown> {
  return {
    id: app.id,
    slug: app.slug,
    client_id: app.clientId,
    node_id: nodeId('App', app.id),
    owner: userObject(api, app.owner),
    name: app.name,
    description: null,
    external_url: `https://${app.slug}.example.test`,
    html_url: `${HTML_URL}/apps/${app.slug}`,
    created_at: app.createdAt,
    updated_at: app.createdAt,
    permissions: { ...app.permissions },
    events: [...app.events],
  };
}

/** GitHub's `installation`. */
export function installationObject(
  api: string,
  installation: Installation,
  app: AppInfo,
): Record<string, unknown> {
  return {
    id: installation.id,
    account: userObject(api, installation.account),
    repository_selection: installation.repositories === undefined ? 'all' : 'selected',
    access_tokens_url: `${api}/app/installations/${installation.id}/access_tokens`,
    repositories_url: `${api}/installation/repositories`,
    html_url: `${HTML_URL}/settings/installations/${installation.id}`,
    app_id: app.id,
    client_id: app.clientId,
    target_id: installation.account.id,
    target_type: installation.account.type === 'Organization' ? 'Organization' : 'User',
    permissions: { ...installation.permissions },
    events: [...installation.events],
    created_at: installation.createdAt,
    updated_at: installation.createdAt,
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [],
    app_slug: app.slug,
    suspended_by: null,
    suspended_at: null,
  };
}

const UNSIGNED = {
  verified: false,
  reason: 'unsigned',
  signature: null,
  payload: null,
  verified_at: null,
};

function signatureObject(signature: Signature): Record<string, unknown> {
  return { name: signature.name, email: signature.email, date: signature.date };
}

/** GitHub's `git-commit` (`git/get-commit`, `git/create-commit`). */
export function gitCommitObject(
  api: string,
  fullName: string,
  sha: string,
  commit: CommitData,
): Record<string, unknown> {
  const repoUrl = `${api}/repos/${fullName}`;
  return {
    sha,
    node_id: nodeId('Commit', sha),
    url: `${repoUrl}/git/commits/${sha}`,
    html_url: `${HTML_URL}/${fullName}/commit/${sha}`,
    author: signatureObject(commit.author),
    committer: signatureObject(commit.committer),
    tree: { sha: commit.tree, url: `${repoUrl}/git/trees/${commit.tree}` },
    message: commit.message,
    parents: commit.parents.map((parent) => ({
      sha: parent,
      url: `${repoUrl}/git/commits/${parent}`,
      html_url: `${HTML_URL}/${fullName}/commit/${parent}`,
    })),
    verification: UNSIGNED,
  };
}

/** GitHub's `commit` (`repos/get-commit`, the commits of `repos/compare-commits`). */
export function commitObject(
  api: string,
  fullName: string,
  sha: string,
  commit: CommitData,
  extra: { stats?: { additions: number; deletions: number }; files?: unknown[] } = {},
): Record<string, unknown> {
  const repoUrl = `${api}/repos/${fullName}`;
  return {
    url: `${repoUrl}/commits/${sha}`,
    sha,
    node_id: nodeId('Commit', sha),
    html_url: `${HTML_URL}/${fullName}/commit/${sha}`,
    comments_url: `${repoUrl}/commits/${sha}/comments`,
    commit: {
      url: `${repoUrl}/git/commits/${sha}`,
      author: signatureObject(commit.author),
      committer: signatureObject(commit.committer),
      message: commit.message.replace(/\n$/, ''),
      comment_count: 0,
      tree: { sha: commit.tree, url: `${repoUrl}/git/trees/${commit.tree}` },
      verification: UNSIGNED,
    },
    // GitHub sends null when the e-mail address belongs to no account; the double has none.
    author: null,
    committer: null,
    parents: commit.parents.map((parent) => ({
      sha: parent,
      url: `${repoUrl}/commits/${parent}`,
      html_url: `${HTML_URL}/${fullName}/commit/${parent}`,
    })),
    ...(extra.stats === undefined
      ? {}
      : {
          stats: {
            additions: extra.stats.additions,
            deletions: extra.stats.deletions,
            total: extra.stats.additions + extra.stats.deletions,
          },
        }),
    ...(extra.files === undefined ? {} : { files: extra.files }),
  };
}

/** Base64 as the contents and blobs APIs send it: wrapped every 60 characters. */
export function wrappedBase64(content: Buffer): string {
  const text = content.toString('base64');
  const lines = text.match(/.{1,60}/g) ?? [];
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
