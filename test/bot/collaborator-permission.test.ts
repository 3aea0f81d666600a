import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  livePermission,
  mayRunCommands,
  type RepositoryRole,
} from '../../src/github/collaborator-permission.js';
import { readCommandTrigger } from '../../src/github/command-trigger.js';
import { createGitHubClient, type GitHubClient } from '../../src/github/github-client.js';
import { readCommentPayload } from '../../src/github/issue-event-payloads.js';
import { type GitHubApiDouble, startGitHubApiDouble } from '../support/github-api-double/index.js';
import { objectAt, webhookExample } from '../support/webhook-examples.js';

const OWNER = 'octo-org';
const REPO = 'service';
const REPOSITORY = { owner: OWNER, repo: REPO };
/** The only permission the token has; `metadata: read` is what the endpoint needs. */
const TOKEN = 'metadata-only';

let double: GitHubApiDouble;
let client: GitHubClient;

beforeAll(async () => {
  double = await startGitHubApiDouble();
  double.addRepository({ owner: OWNER, repo: REPO, private: true });
  double.addToken(TOKEN, { metadata: 'read' });
  client = createGitHubClient({
    token: TOKEN,
    baseUrl: double.url,
    userAgent: 'aureus-test',
    warn: () => {},
  });
});

afterAll(async () => {
  await double.close();
});

beforeEach(() => {
  double.reset();
});

afterEach(() => {
  expect(double.invalidRequests()).toEqual([]);
  expect(double.unexpectedRequests()).toEqual([]);
  expect(double.forbiddenRequests()).toEqual([]);
  expect(double.responseViolations()).toEqual([]);
});

const MATRIX: ReadonlyArray<readonly [RepositoryRole, number, boolean]> = [
  ['none', 7001, false],
  ['read', 7002, false],
  ['triage', 7003, false],
  ['write', 7004, true],
  ['maintain', 7005, true],
  ['admin', 7006, true],
];

describe('livePermission and mayRunCommands', () => {
  it.each(MATRIX)('a %s user may run commands: %s', async (role, id, allowed) => {
    const login = `user-${role}`;
    double.setPermission(OWNER, REPO, { login, id, type: 'User' }, role);
    const permission = await livePermission(client, REPOSITORY, { id, login });
    expect(permission).toEqual({ verified: true, role });
    expect(mayRunCommands(permission.role)).toBe(allowed);
    expect(double.callsTo('repos/get-collaborator-permission-level')).toHaveLength(1);
  });

  it('someone never added to a private repository has no role', async () => {
    const permission = await livePermission(client, REPOSITORY, { id: 7100, login: 'stranger' });
    expect(permission.role).toBe('none');
    expect(mayRunCommands(permission.role)).toBe(false);
  });

  it('an allow-listed bot still needs write on the repository', async () => {
    const helper = { login: 'helper[bot]', id: 7200, type: 'Bot' as const };
    double.setPermission(OWNER, REPO, helper, 'read');
    expect(await livePermission(client, REPOSITORY, helper)).toEqual({
      verified: true,
      role: 'read',
    });
    double.setPermission(OWNER, REPO, helper, 'write');
    const permission = await livePermission(client, REPOSITORY, helper);
    expect(mayRunCommands(permission.role)).toBe(true);
  });

  it('refuses a login that now belongs to another account (renamed or reused)', async () => {
    // The payload's login was the maintainer's; a different account (id 7301) owns it now.
    double.setPermission(OWNER, REPO, { login: 'old-maintainer', id: 7301, type: 'User' }, 'admin');
    const permission = await livePermission(client, REPOSITORY, {
      id: 7300,
      login: 'old-maintainer',
    });
    expect(permission).toMatchObject({ verified: false, role: 'none' });
    expect(mayRunCommands(permission.role)).toBe(false);
  });

  it('reports a broken token instead of reading it as "no rights"', async () => {
    const broken = createGitHubClient({
      token: 'unknown-token',
      baseUrl: double.url,
      userAgent: 'aureus-test',
      warn: () => {},
    });
    await expect(
      livePermission(broken, REPOSITORY, { id: 7004, login: 'user-write' }),
    ).rejects.toMatchObject({
      status: 401,
    });
  });
});

describe('from a real comment to the decision', () => {
  /** Trigger, then live permission: who gets a command run, end to end over the double. */
  async function decide(author: {
    login: string;
    id: number;
    type: 'User' | 'Bot';
  }): Promise<string> {
    const payload = webhookExample('issue_comment', 'created');
    const repository = objectAt(payload, 'repository');
    payload.repository = {
      ...repository,
      full_name: `${OWNER}/${REPO}`,
      name: REPO,
      owner: { ...objectAt(repository, 'owner'), login: OWNER },
    };
    payload.sender = { ...objectAt(payload, 'sender'), ...author };
    payload.comment = {
      ...objectAt(payload, 'comment'),
      user: { ...author },
      body: '/aureus check',
    };
    const trigger = readCommandTrigger(readCommentPayload(payload), {
      appBotUserId: 9000,
      allowedBotIds: [7401],
    });
    if ('ignore' in trigger) return `ignored: ${trigger.ignore}`;
    const permission = await livePermission(client, trigger.repository, trigger.commenter);
    return mayRunCommands(permission.role) ? 'run' : `refused: ${permission.role}`;
  }

  it('runs commands for write, maintain, admin and allow-listed bots with write only', async () => {
    double.setPermission(OWNER, REPO, { login: 'tri', id: 7501, type: 'User' }, 'triage');
    double.setPermission(OWNER, REPO, { login: 'main', id: 7502, type: 'User' }, 'maintain');
    double.setPermission(OWNER, REPO, { login: 'allowed[bot]', id: 7401, type: 'Bot' }, 'write');
    double.setPermission(OWNER, REPO, { login: 'other[bot]', id: 7402, type: 'Bot' }, 'admin');
    expect(await decide({ login: 'tri', id: 7501, type: 'User' })).toBe('refused: triage');
    expect(await decide({ login: 'main', id: 7502, type: 'User' })).toBe('run');
    expect(await decide({ login: 'allowed[bot]', id: 7401, type: 'Bot' })).toBe('run');
    expect(await decide({ login: 'other[bot]', id: 7402, type: 'Bot' })).toBe(
      'ignored: bot-not-allowed',
    );
    expect(await decide({ login: 'aureus[bot]', id: 9000, type: 'Bot' })).toBe(
      'ignored: own-event',
    );
    // Ignored comments cost no API call.
    expect(double.requests()).toHaveLength(3);
  });
});
