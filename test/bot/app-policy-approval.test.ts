import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { isolateGit } from '../support/git-fixture.js';
import {
  commentPayload,
  OWNER,
  pullRequestPayload,
  REPO,
  REPO_ID,
  rerequestPayload,
} from './support/app-payloads.js';
import { type AppRepository, makeAppRepository } from './support/app-repository.js';
import { APP_ID, type AppSession, startAppSession } from './support/app-session.js';

/** The repository's policy (SMALL_BUDGET_POLICY) with its per-change block raised tenfold. */
const LOOSENED = 'version: 1\nbudgets:\n  change:\n    warn: 40\n    block: 600\n';
const TIGHTENED = 'version: 1\nbudgets:\n  change:\n    warn: 40\n    block: 50\n';
const WRITER = { login: 'wren', id: 7101, type: 'User' as const };
const MAINTAINER = { login: 'maia', id: 7102, type: 'User' as const };

let restoreGit: () => Promise<void>;
let session: AppSession;
let repository: AppRepository;

beforeAll(async () => {
  restoreGit = await isolateGit();
  session = await startAppSession(OWNER);
  repository = await makeAppRepository(session.double);
  session.double.setPermission(OWNER, REPO, WRITER, 'write');
  session.double.setPermission(OWNER, REPO, MAINTAINER, 'maintain');
});

beforeEach(() => session.double.reset());

afterAll(async () => {
  await session.close();
  await repository.remove();
  await restoreGit();
});

async function open(number: number, policy: string): Promise<string> {
  const headSha = repository.openPullRequest(number, { '.aureus/policy.yaml': policy });
  await push(number, headSha, 'opened');
  return headSha;
}

async function push(number: number, headSha: string, action: string): Promise<void> {
  const payload = pullRequestPayload(action, { number, baseSha: repository.baseSha, headSha });
  expect(await session.send('pull_request', payload)).toBe(200);
  await session.app.idle();
}

async function comment(number: number, body: string, author: typeof WRITER): Promise<void> {
  expect(await session.send('issue_comment', commentPayload(number, body, author))).toBe(200);
  await session.app.idle();
  expect(session.double.invalidRequests()).toEqual([]);
  expect(session.double.forbiddenRequests()).toEqual([]);
  expect(session.double.unexpectedRequests()).toEqual([]);
}

function runsOn(headSha: string) {
  return session.double.checkRuns(OWNER, REPO).filter((run) => run.headSha === headSha);
}

function lastReply(number: number): string {
  return session.double.issueComments(OWNER, REPO, number).at(-1)?.body ?? '';
}

async function ledgerRecords(): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(session.dataDir, 'ledger', `${REPO_ID}.jsonl`), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line).record);
}

describe('a pull request that loosens the policy, in the App', () => {
  it('fails until a maintainer approves its head, refuses a writer, and blocks again after a push', async () => {
    const head = await open(20, LOOSENED);
    const [blocked] = runsOn(head);
    expect(blocked).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(blocked?.summary).toContain('budgets.change.block: 60 → 600');
    expect(blocked?.summary).toContain('/aureus approve-policy');

    await comment(20, '/aureus approve-policy fine by me', WRITER);
    expect(lastReply(20)).toContain('needs maintain or admin permission');
    expect(lastReply(20)).toContain('permission is write');
    expect(runsOn(head).map((run) => run.conclusion)).toEqual(['failure']);

    await comment(20, '/aureus approve-policy agreed in the design review', MAINTAINER);
    const approved = runsOn(head).at(-1);
    expect(approved).toMatchObject({ conclusion: 'success' });
    expect(approved?.summary).toContain('approved it for this commit');
    const reply = session.double
      .issueComments(OWNER, REPO, 20)
      .find((c) => c.body.startsWith('<!-- aureus:policy-approval '));
    expect(reply?.user).toBe('aureus[bot]');
    expect(reply?.body).toContain('budgets.change.block: 60 → 600');
    const records = await ledgerRecords();
    expect(records.find((record) => record.policyApproval)).toMatchObject({
      head,
      policyLoosened: ['budgets.change.block: 60 → 600'],
      policyApproval: {
        by: '@maia',
        accountId: MAINTAINER.id,
        reason: 'agreed in the design review',
        head,
        settings: ['budgets.change.block: 60 → 600'],
      },
    });

    // The Re-run button on that check finds the recorded approval again.
    await session.send(
      'check_run',
      rerequestPayload({
        id: approved?.id ?? 0,
        headSha: head,
        externalId: 'pull:20',
        appId: APP_ID,
      }),
    );
    await session.app.idle();
    expect(runsOn(head).at(-1)).toMatchObject({ conclusion: 'success' });

    // A new push is judged again: the approval was for the commit the maintainer saw.
    repository.origin.write('src/note.ts', 'export const note = 1;\n');
    const next = repository.origin.commit('another push');
    session.double.addPullRequest({
      owner: OWNER,
      repo: REPO,
      number: 20,
      baseSha: repository.baseSha,
      headSha: next,
    });
    await push(20, next, 'synchronize');
    expect(runsOn(next).map((run) => run.conclusion)).toEqual(['failure']);
  });

  it('passes a pull request that only tightens the policy, with no approval', async () => {
    const head = await open(21, TIGHTENED);
    expect(runsOn(head).map((run) => run.conclusion)).toEqual(['success']);
  });
});
