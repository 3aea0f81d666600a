import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Octokit } from '@octokit/rest';
import { isolateGit, makeRepo, type Repo } from '../git-fixture.js';
import { type GitHubApiDouble, startGitHubApiDouble } from './index.js';

const OWNER = 'octo-org';
const REPO = 'widgets';
const APP_ID = 4242;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function octokitFor(double: GitHubApiDouble, auth: string): Octokit {
  return new Octokit({ auth, baseUrl: double.url, request: { retries: 0 }, log: quiet });
}

/** A JWT as probot signs one; the double reads `iss` and does not check the signature. */
function appJwt(appId: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iat: now - 60, exp: now + 540, iss: appId })}.c2ln`;
}

async function failureOf(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof Error && 'status' in error) {
      return { status: Number(error.status), message: error.message };
    }
    throw error;
  }
  throw new Error('the call succeeded');
}

let restoreGit: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
let double: GitHubApiDouble;
let installationToken: string;

beforeAll(async () => {
  restoreGit = await isolateGit();
  repo = await makeRepo('api-double-users');
  repo.write('README.md', '# widgets\n');
  repo.commit('base');
  double = await startGitHubApiDouble();
  double.addRepository({ owner: OWNER, repo: REPO, gitDir: repo.dir, private: false });
  double.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number: 1,
    baseSha: 'main',
    headSha: 'main',
    user: { login: 'contributor', id: 4321 },
  });
  double.addApp({ id: APP_ID, slug: 'aureus', name: 'AUREUS' });
  double.addInstallation({
    id: 99,
    appId: APP_ID,
    account: { login: OWNER, type: 'Organization' },
    // No permission beyond the mandatory metadata: reading a user needs none.
    permissions: { metadata: 'read' },
    repositories: [REPO],
  });
  const { data } = await octokitFor(double, appJwt(APP_ID)).rest.apps.createInstallationAccessToken(
    { installation_id: 99 },
  );
  installationToken = data.token;
});

afterAll(async () => {
  // Read before closing, assert after: a failed expectation must not leave the server open.
  const problems = [
    ...double.invalidRequests(),
    ...double.unexpectedRequests(),
    ...double.responseViolations(),
  ];
  await double.close();
  await repo.remove();
  await restoreGit();
  expect(problems).toEqual([]);
});

describe('users/get-by-username', () => {
  it("gives an installation token its own bot's id", async () => {
    const octokit = octokitFor(double, installationToken);
    const { data } = await octokit.rest.users.getByUsername({ username: 'aureus[bot]' });
    expect(data).toMatchObject({
      login: 'aureus[bot]',
      id: APP_ID + 1_000_000,
      type: 'Bot',
      html_url: 'https://github.com/apps/aureus',
    });
    expect(data.url).toBe(`${double.url}/users/aureus%5Bbot%5D`);
    const request = double.requests().at(-1);
    expect(request).toMatchObject({
      path: '/users/aureus%5Bbot%5D',
      operationId: 'users/get-by-username',
      status: 200,
      outcome: 'handled',
    });
  });

  it('matches the login case-insensitively and answers with its own spelling', async () => {
    const { data } = await octokitFor(double, installationToken).rest.users.getByUsername({
      username: 'AUREUS[BOT]',
    });
    expect(data.login).toBe('aureus[bot]');
  });

  it('knows token identities, collaborators and pull request authors', async () => {
    double.addToken('pat', {}, { identity: { login: 'Octocat', id: 583231 } });
    double.setPermission(OWNER, REPO, { login: 'maintainer', id: 77 }, 'maintain');
    const octokit = octokitFor(double, 'pat');
    const octocat = await octokit.rest.users.getByUsername({ username: 'octocat' });
    expect(octocat.data).toMatchObject({ login: 'Octocat', id: 583231, type: 'User' });
    const maintainer = await octokit.rest.users.getByUsername({ username: 'maintainer' });
    expect(maintainer.data).toMatchObject({ login: 'maintainer', id: 77, type: 'User' });
    const author = await octokit.rest.users.getByUsername({ username: 'Contributor' });
    expect(author.data).toMatchObject({ login: 'contributor', id: 4321, type: 'User' });
    const organization = await octokit.rest.users.getByUsername({ username: OWNER });
    expect(organization.data.type).toBe('Organization');
  });

  it('answers 404 for a login it does not know', async () => {
    const failure = await failureOf(
      octokitFor(double, installationToken).rest.users.getByUsername({ username: 'nobody[bot]' }),
    );
    expect(failure.status).toBe(404);
    expect(double.requests().at(-1)).toMatchObject({ status: 404, outcome: 'handled' });
  });

  it('still needs a token', async () => {
    const octokit = new Octokit({ baseUrl: double.url, request: { retries: 0 }, log: quiet });
    const failure = await failureOf(octokit.rest.users.getByUsername({ username: 'aureus[bot]' }));
    expect(failure.status).toBe(401);
  });
});
