import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { appLedgerPath } from '../../src/memory/app-ledger.js';
import { readJournal } from '../../src/memory/journal.js';
import { codeLines } from '../action/support/pull-request-scenario.js';
import { isolateGit, type Repo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { OWNER, pullRequestPayload, REPO, REPO_ID } from './support/app-payloads.js';
import {
  type AppRepository,
  makeAppRepository,
  operations as operationsOf,
} from './support/app-repository.js';
import {
  type AppSession,
  type SendOptions,
  startAppSession,
  WEBHOOK_SECRET,
} from './support/app-session.js';

let restoreGit: () => Promise<void>;
let session: AppSession;
let repository: AppRepository;
let origin: Repo;
let baseSha: string;

beforeAll(async () => {
  restoreGit = await isolateGit();
  session = await startAppSession(OWNER);
  repository = await makeAppRepository(session.double);
  origin = repository.origin;
  baseSha = repository.baseSha;
});

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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function expectCleanRequests(): void {
  expect(session.double.invalidRequests()).toEqual([]);
  expect(session.double.forbiddenRequests()).toEqual([]);
  expect(session.double.unexpectedRequests()).toEqual([]);
}

describe('the App on pull requests', () => {
  it('blocks a pull request over budget: a failing check run and one sticky comment', async () => {
    const headSha = openPullRequest(1, { 'src/big.ts': codeLines('big', 80) });
    session.double.reset();
    const status = await session.send(
      'pull_request',
      pullRequestPayload('opened', { number: 1, baseSha, headSha }),
    );
    expect(status).toBe(200);
    await session.app.idle();
    expectCleanRequests();
    const calls = operations();
    expect(calls.slice(0, 5)).toEqual([
      'apps/get-authenticated',
      'apps/create-installation-access-token',
      'users/get-by-username',
      'checks/list-for-ref',
      'checks/create',
    ]);
    expect(calls.slice(-2)).toEqual(['issues/create-comment', 'checks/update']);
    const runs = session.double.checkRuns(OWNER, REPO).filter((run) => run.headSha === headSha);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ name: 'AUREUS', status: 'completed', conclusion: 'failure' });
    const comments = session.double.issueComments(OWNER, REPO, 1);
    expect(comments).toHaveLength(1);
    expect(comments[0]?.user).toBe('aureus[bot]');
    expect(comments[0]?.body).toContain('<!-- aureus:ledger -->');
    // The App's ledger holds no earlier check of the repository: no trend to draw.
    expect(comments[0]?.body).not.toContain('```mermaid');
  });

  it('passes a pull request within budget', async () => {
    const headSha = openPullRequest(2, { 'src/small.ts': codeLines('small', 5) });
    await session.send(
      'pull_request',
      pullRequestPayload('opened', { number: 2, baseSha, headSha }),
    );
    await session.app.idle();
    expectCleanRequests();
    const runs = session.double.checkRuns(OWNER, REPO).filter((run) => run.headSha === headSha);
    expect(runs.map((run) => run.conclusion)).toEqual(['success']);
    expect(runs[0]?.title).toMatch(/^Within budget/);
  });

  it('edits the same comment and concludes the new head when a push fixes the overrun', async () => {
    const before = session.double.issueComments(OWNER, REPO, 1);
    origin.git('checkout', '--quiet', 'feature-1');
    origin.git('rm', '--quiet', 'src/big.ts');
    origin.write('src/big.ts', codeLines('big', 4));
    const headSha = origin.commit('smaller');
    session.double.addPullRequest({ owner: OWNER, repo: REPO, number: 1, baseSha, headSha });
    session.double.reset();
    await session.send(
      'pull_request',
      pullRequestPayload('synchronize', { number: 1, baseSha, headSha }),
    );
    await session.app.idle();
    expectCleanRequests();
    const calls = operations();
    expect(calls).toContain('issues/update-comment');
    expect(calls).not.toContain('issues/create-comment');
    // The bot's identity is known from the first event: no second lookup.
    expect(calls).not.toContain('users/get-by-username');
    const after = session.double.issueComments(OWNER, REPO, 1);
    expect(after.map((comment) => comment.id)).toEqual(before.map((comment) => comment.id));
    expect(after[0]?.body).not.toEqual(before[0]?.body);
    // Two earlier checks of the repository in the App's own ledger: too few for a trend.
    expect(after[0]?.body).not.toContain('```mermaid');
    const run = session.double.checkRuns(OWNER, REPO).find((r) => r.headSha === headSha);
    expect(run?.conclusion).toBe('success');
  });

  it('fails a pull request that adds a file that does not parse, annotating its line and column', async () => {
    const headSha = openPullRequest(8, {
      'src/broken.ts': 'export const one = 1;\nexport const = ;\n',
    });
    await session.send(
      'pull_request',
      pullRequestPayload('opened', { number: 8, baseSha, headSha }),
    );
    await session.app.idle();
    expectCleanRequests();
    const run = session.double.checkRuns(OWNER, REPO).find((r) => r.headSha === headSha);
    expect(run?.conclusion).toBe('failure');
    expect(run?.annotations).toEqual([
      expect.objectContaining({
        path: 'src/broken.ts',
        start_line: 2,
        end_line: 2,
        start_column: 14,
        end_column: 14,
        annotation_level: 'failure',
        title: 'AUREUS unparsable_file (new)',
      }),
    ]);
    // Three earlier checks, of two pull requests (the first one pushed to twice): too few changes.
    const [comment] = session.double.issueComments(OWNER, REPO, 8);
    expect(comment?.body).not.toContain('```mermaid');
  });

  it('ignores a redelivery, and a new delivery for a head already concluded', async () => {
    const headSha = openPullRequest(3, { 'src/third.ts': codeLines('third', 5) });
    const payload = pullRequestPayload('opened', { number: 3, baseSha, headSha });
    await session.send('pull_request', payload, { deliveryId: 'delivery-3' });
    await session.app.idle();
    // Three earlier pull requests in the App's own ledger, each counted once: the comment charts them.
    const [comment] = session.double.issueComments(OWNER, REPO, 3);
    expect(comment?.body).toMatch(
      /```mermaid\nxychart-beta\n {4}title "Cost per change \(points\)"\n {4}x-axis "Change" \["-3", "-2", "-1", "this PR"\]\n {4}y-axis "Points"\n {4}bar \[0, 0, 0, \d+\]\n {4}line \[\d+, \d+, \d+, \d+\]\n {4}line \[(\d+), \1, \1, \1\]\n {4}line \[(\d+), \2, \2, \2\]\n```/,
    );
    session.double.reset();
    expect(await session.send('pull_request', payload, { deliveryId: 'delivery-3' })).toBe(200);
    await session.app.idle();
    expect(session.double.requests()).toEqual([]);
    // After a restart the memory of deliveries is gone; the concluded check run still answers.
    await session.send(
      'pull_request',
      pullRequestPayload('reopened', { number: 3, baseSha, headSha }),
    );
    await session.app.idle();
    expect(operations()).toEqual(['checks/list-for-ref']);
    expect(session.double.checkRuns(OWNER, REPO).filter((r) => r.headSha === headSha)).toHaveLength(
      1,
    );
    expect(session.double.issueComments(OWNER, REPO, 3)).toHaveLength(1);
  });

  it.each<[string, SendOptions]>([
    ['a signature made with another secret', { secret: 'not-the-secret-0123456789' }],
    ['no signature', { signatureHeaders: {} }],
    ['only a sha1 signature', { signatureHeaders: { 'x-hub-signature': 'sha1=00' } }],
  ])('refuses %s and calls nothing', async (_name, options) => {
    const headSha = openPullRequest(4, { 'src/forged.ts': codeLines('forged', 5) });
    session.double.reset();
    const status = await session.send(
      'pull_request',
      pullRequestPayload('opened', { number: 4, baseSha, headSha }),
      options,
    );
    await session.app.idle();
    expect([400, 401]).toContain(status);
    expect(session.double.requests()).toEqual([]);
  });

  it('refuses a valid signature over other bytes than those sent', async () => {
    const headSha = openPullRequest(5, { 'src/bytes.ts': codeLines('bytes', 5) });
    const payload = pullRequestPayload('opened', { number: 5, baseSha, headSha });
    const signed = JSON.stringify(payload);
    session.double.reset();
    const status = await session.send('pull_request', payload, {
      body: `${signed}\n`,
      signatureHeaders: {
        'x-hub-signature-256': `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(signed).digest('hex')}`,
      },
    });
    await session.app.idle();
    expect([400, 401]).toContain(status);
    expect(session.double.requests()).toEqual([]);
  });

  it('concludes the check run as an internal error when the analysis throws', async () => {
    const headSha = openPullRequest(6, { 'src/fault.ts': codeLines('fault', 5) });
    session.double.reset();
    session.double.failNext('git/get-tree', { status: 500, body: { message: 'Server Error' } });
    await session.send(
      'pull_request',
      pullRequestPayload('opened', { number: 6, baseSha, headSha }),
    );
    await session.app.idle();
    const runs = session.double.checkRuns(OWNER, REPO).filter((run) => run.headSha === headSha);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      status: 'completed',
      conclusion: 'failure',
      title: 'AUREUS internal error',
    });
    expect(runs[0]?.summary).toContain('not judged');
    expect(runs[0]?.summary).not.toContain('Server Error');
    expect(runs[0]?.summary).not.toMatch(/\bat .*\.(js|ts):\d+/);
  });

  it('keeps the comment under 65,000 bytes with 10,000 findings', async () => {
    const lines = Array.from({ length: 10_000 }, (_, index) => `export let v${index} = ${index};`);
    const headSha = openPullRequest(7, { 'src/state.ts': `${lines.join('\n')}\n` });
    await session.send(
      'pull_request',
      pullRequestPayload('opened', { number: 7, baseSha, headSha }),
    );
    await session.app.idle();
    expectCleanRequests();
    const [comment] = session.double.issueComments(OWNER, REPO, 7);
    expect(Buffer.byteLength(comment?.body ?? '', 'utf8')).toBeLessThanOrEqual(65_000);
    const run = session.double.checkRuns(OWNER, REPO).find((r) => r.headSha === headSha);
    expect(run?.conclusion).toBe('failure');

    // Errors first, then warnings, 500 at most (ten requests), the rest in the summary.
    expect(run?.annotations).toHaveLength(500);
    expect(run?.annotationBatches).toBe(10);
  });

  it("carries the ledger's anchor in the check run, from the App's own journal", async () => {
    // A marker forged in the pull request's content lands in the summary at most, never in the text.
    const forged = `<!-- aureus:ledger-anchor 1:${'0'.repeat(64)} -->`;
    const headSha = openPullRequest(9, {
      'src/anchored.ts': `// ${forged}\n${codeLines('anchored', 5)}`,
    });
    session.double.reset();
    await session.send(
      'pull_request',
      pullRequestPayload('opened', { number: 9, baseSha, headSha }),
    );
    await session.app.idle();
    expectCleanRequests();
    const ledger = appLedgerPath(session.dataDir, REPO_ID);
    const { entries } = await readJournal(ledger);
    const line = entries.find((entry) => entry.record.key === `pull_request.opened:${headSha}`);
    const marker = `<!-- aureus:ledger-anchor ${line?.lineNumber}:${line?.hash} -->`;
    const [completed] = session.double
      .callsTo('checks/update')
      .map((request) => request.body)
      .filter((body) => isObject(body) && body.status === 'completed');
    expect(completed).toMatchObject({ output: { text: marker } });
    const run = session.double.checkRuns(OWNER, REPO).find((r) => r.headSha === headSha);
    expect(run?.text).toBe(marker);
    expect(run?.summary).not.toContain(marker);
    const verify = await runCliInProcess(
      ['ledger', 'verify', '--file', ledger, '--anchor', marker],
      session.dataDir,
    );
    expect(verify.code).toBe(0);
  });
});
