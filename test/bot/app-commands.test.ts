import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { BUILDER_NOT_ENABLED_REPLY, HELP_REPLY } from '../../src/github/command-replies.js';
import { codeLines } from '../action/support/pull-request-scenario.js';
import { isolateGit, type Repo } from '../support/git-fixture.js';
import type { Role } from '../support/github-api-double/index.js';
import {
  commentPayload,
  mergeGroupPayload,
  OWNER,
  pullRequestPayload,
  REPO,
  REPO_ID,
  rerequestPayload,
} from './support/app-payloads.js';
import {
  type AppRepository,
  makeAppRepository,
  operations as operationsOf,
} from './support/app-repository.js';
import { APP_BOT_ID, APP_ID, type AppSession, startAppSession } from './support/app-session.js';

let restoreGit: () => Promise<void>;
let session: AppSession;
let repository: AppRepository;
let origin: Repo;
let baseSha: string;
/** Pull request 10, over budget: its head and its first (failing) check run. */
let overHead: string;

const ADMIN = { login: 'ada', id: 7001, type: 'User' as const };
const person = (role: string, id: number) => ({
  login: `${role}-person`,
  id,
  type: 'User' as const,
});

beforeAll(async () => {
  restoreGit = await isolateGit();
  session = await startAppSession(OWNER);
  repository = await makeAppRepository(session.double);
  origin = repository.origin;
  baseSha = repository.baseSha;
  session.double.setPermission(OWNER, REPO, ADMIN, 'admin');
  overHead = openPullRequest(10, { 'src/big.ts': codeLines('big', 80) });
  await session.send(
    'pull_request',
    pullRequestPayload('opened', { number: 10, baseSha, headSha: overHead }),
  );
  await session.app.idle();
});

beforeEach(() => session.double.reset());

afterAll(async () => {
  await session.close();
  await repository.remove();
  await restoreGit();
});

function operations(): string[] {
  return operationsOf(session.double);
}

function openPullRequest(number: number, files: Record<string, string>): string {
  return repository.openPullRequest(number, files);
}

async function comment(
  body: string,
  author: { login: string; id: number; type: string },
  options: { number?: number; onPullRequest?: boolean; action?: string } = {},
): Promise<void> {
  const status = await session.send(
    'issue_comment',
    commentPayload(options.number ?? 10, body, author, options),
  );
  expect(status).toBe(200);
  await session.app.idle();
  expect(session.double.invalidRequests()).toEqual([]);
  expect(session.double.forbiddenRequests()).toEqual([]);
  expect(session.double.unexpectedRequests()).toEqual([]);
}

function runsOn(headSha: string) {
  return session.double.checkRuns(OWNER, REPO).filter((run) => run.headSha === headSha);
}

describe('/aureus commands by permission', () => {
  it.each<[Role | 'none (no access)', number]>([
    ['none (no access)', 8001],
    ['read', 8002],
    ['triage', 8003],
  ])('refuses %s without a reply', async (role, id) => {
    const user = person(role.split(' ')[0] ?? role, id);
    if (role !== 'none (no access)') session.double.setPermission(OWNER, REPO, user, role);
    await comment('/aureus help', user);
    expect(operations()).toEqual(['repos/get-collaborator-permission-level']);
  });

  it.each<[Role, number]>([
    ['write', 8004],
    ['maintain', 8005],
    ['admin', 8006],
  ])('answers %s', async (role, id) => {
    const user = person(role, id);
    session.double.setPermission(OWNER, REPO, user, role);
    await comment('/aureus help', user);
    expect(operations()).toEqual([
      'repos/get-collaborator-permission-level',
      'issues/create-comment',
    ]);
    expect(session.double.issueComments(OWNER, REPO, 10).at(-1)?.body).toBe(HELP_REPLY);
  });

  it('ignores a bot that is not allow-listed, after reading the default branch policy', async () => {
    await comment('/aureus help', { login: 'helper[bot]', id: 9101, type: 'Bot' });
    expect(operations()).not.toContain('repos/get-collaborator-permission-level');
    expect(operations()).not.toContain('issues/create-comment');
  });

  it('never reacts to its own comments, nor to edited ones', async () => {
    await comment('/aureus check', { login: 'aureus[bot]', id: APP_BOT_ID, type: 'Bot' });
    await comment('/aureus check', ADMIN, { action: 'edited' });
    expect(session.double.requests()).toEqual([]);
  });

  it.each([
    ['a collapsed <details>', '<details>\n<summary>Log</summary>\n\n/aureus help\n\n</details>'],
    ['an HTML comment', '<!--\n/aureus help\n-->'],
    ['a quote', '> /aureus help'],
    ['a code fence', '```\n/aureus help\n```'],
    ['a code span', 'Type `\n/aureus help\n` for the list.'],
  ])('ignores a command inside %s, with no API call', async (_name, body) => {
    await comment(body, ADMIN);
    expect(operations()).toEqual([]);
  });

  it('answers the same command in plain sight', async () => {
    await comment('Thanks.\n\n/aureus help', ADMIN);
    expect(session.double.issueComments(OWNER, REPO, 10).at(-1)?.body).toBe(HELP_REPLY);
  });

  it('answers /aureus implement: the builder is not enabled', async () => {
    await comment('/aureus implement', ADMIN, { number: 3, onPullRequest: false });
    expect(session.double.issueComments(OWNER, REPO, 3).at(-1)?.body).toBe(
      BUILDER_NOT_ENABLED_REPLY,
    );
  });
});

describe('/aureus commands on a pull request', () => {
  it('prices the head as a reply, with no check run', async () => {
    await comment('/aureus price', ADMIN);
    expect(operations()).not.toContain('checks/create');
    const reply = session.double.issueComments(OWNER, REPO, 10).at(-1)?.body ?? '';
    expect(reply.startsWith('<!-- aureus:price -->')).toBe(true);
    expect(reply).toContain('BLOCK');
  });

  it('re-runs the check in a new check run on /aureus check', async () => {
    const before = runsOn(overHead).length;
    await comment('/aureus check', ADMIN);
    expect(runsOn(overHead)).toHaveLength(before + 1);
    expect(runsOn(overHead).at(-1)?.conclusion).toBe('failure');
  });

  it('lets a maintainer approve the overrun of this head only, recorded in the ledger', async () => {
    await comment('/aureus approve-budget migration agreed in the design review', ADMIN);
    const calls = operations();
    expect(calls).toContain('pulls/get');
    const approved = runsOn(overHead).at(-1);
    expect(approved).toMatchObject({ conclusion: 'success' });
    expect(approved?.summary).toContain('approved the overrun for this commit');
    const reply = session.double
      .issueComments(OWNER, REPO, 10)
      .find((c) => c.body.startsWith('<!-- aureus:budget-approval '));
    expect(reply?.user).toBe('aureus[bot]');
    const ledger = await readFile(join(session.dataDir, 'ledger', `${REPO_ID}.jsonl`), 'utf8');
    const override = ledger
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).record)
      .find((record) => record.override !== undefined && record.override !== null);
    expect(override).toMatchObject({
      head: overHead,
      override: { by: 'ada', reason: 'migration agreed in the design review' },
    });

    // The Re-run button on that check finds the recorded approval again.
    session.double.reset();
    await session.send(
      'check_run',
      rerequestPayload({
        id: approved?.id ?? 0,
        headSha: overHead,
        externalId: 'pull:10',
        appId: APP_ID,
      }),
    );
    await session.app.idle();
    expect(runsOn(overHead).at(-1)?.conclusion).toBe('success');

    // A new push is judged again, without the approval.
    origin.git('checkout', '--quiet', 'feature-10');
    origin.write('src/more.ts', codeLines('more', 5));
    const next = origin.commit('more');
    session.double.addPullRequest({ owner: OWNER, repo: REPO, number: 10, baseSha, headSha: next });
    await session.send(
      'pull_request',
      pullRequestPayload('synchronize', { number: 10, baseSha, headSha: next }),
    );
    await session.app.idle();
    expect(runsOn(next).map((run) => run.conclusion)).toEqual(['failure']);
    overHead = next;
  });

  it('refuses an approval from a triage user', async () => {
    const triage = person('triage', 8010);
    session.double.setPermission(OWNER, REPO, triage, 'triage');
    await comment('/aureus approve-budget please', triage);
    expect(operations()).toEqual(['repos/get-collaborator-permission-level']);
  });
});

describe('merge queues', () => {
  it('concludes a check on the merge group head', async () => {
    origin.git('checkout', '--quiet', 'main');
    origin.git('merge', '--quiet', '--no-ff', '-m', 'Merge pull request #10', 'feature-10');
    const head = origin.git('rev-parse', 'HEAD');
    await session.send('merge_group', mergeGroupPayload(baseSha, head));
    await session.app.idle();
    expect(session.double.invalidRequests()).toEqual([]);
    expect(operations()).not.toContain('pulls/get');
    const runs = runsOn(head);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'completed', conclusion: 'failure' });
  });
});
