import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { appLedgerPath } from '../../src/memory/app-ledger.js';
import { appendToJournal, readJournal } from '../../src/memory/journal.js';
import { anchorBeside } from '../../src/memory/journal-anchor-file.js';
import type { JsonObject } from '../../src/model/json.js';
import { isolateGit, makeRepo } from '../support/git-fixture.js';
import { objectAt, webhookExample } from '../support/webhook-examples.js';
import { inRepository, OWNER } from './support/app-payloads.js';
import {
  APP_BOT_ID,
  type AppSession,
  INSTALLATION_ID,
  startAppSession,
} from './support/app-session.js';

const DAY_MS = 86_400_000;

const policy = (open: boolean) => `version: 1
forbidden_patterns:
  circular_dependency:
    severity: error # cycles block
learning:
  open_pull_request: ${open}
`;

/** One repository that opts in, one that does not. */
const ON = { name: 'learning', id: 7101 };
const OFF = { name: 'quiet', id: 7102 };

/** Override reasons as people write them, one of them hostile to a Markdown body. */
const REASONS = [
  'the parser and its printer call each other',
  'legacy sync module, untangled next sprint',
  'hotfix for the outage, cc @octocat',
  'generated client ```` <!-- hidden --> [docs](https://evil.example/phish)',
  'migration in progress',
];

let restoreGit: () => Promise<void>;
let session: AppSession;
const origins: Awaited<ReturnType<typeof makeRepo>>[] = [];

beforeAll(async () => {
  restoreGit = await isolateGit();
  session = await startAppSession(OWNER);
  for (const repo of [ON, OFF]) {
    const origin = await makeRepo(`app-learn-${repo.name}`);
    origin.write('.aureus/policy.yaml', policy(repo === ON));
    origin.write('src/a.ts', 'export const a = 1;\n');
    origin.commit('base');
    session.double.addRepository({
      owner: OWNER,
      repo: repo.name,
      gitDir: origin.dir,
      defaultBranch: 'main',
    });
    origins.push(origin);
  }
});

beforeEach(() => session.double.reset());

afterAll(async () => {
  await session.close();
  for (const origin of origins) await origin.remove();
  await restoreGit();
});

/** Appends to the App's ledger of `repo` as the App does, dated `daysAgo` days back. */
async function writeLedger(repo: { id: number }, record: JsonObject, daysAgo: number) {
  const path = appLedgerPath(session.dataDir, repo.id);
  await appendToJournal(path, record, {
    now: () => new Date(Date.now() - daysAgo * DAY_MS),
    anchor: anchorBeside(path),
  });
}

/** Five changes blocked by a cycle and let through by a maintainer's override, this week. */
async function writeOverrides(repo: { id: number }) {
  for (const [i, reason] of REASONS.entries()) {
    const head = String(i + 1).repeat(40);
    await writeLedger(
      repo,
      {
        key: `pull_request.synchronize:${head}`,
        kind: 'check',
        event: 'pull_request.synchronize',
        head,
        verdict: 'block',
        cost: { total: 20 + i },
        reasons: [`new circular_dependency: src/a${i}.ts → src/b${i}.ts → src/a${i}.ts`],
        override: { by: `maintainer-${i}`, reason },
      },
      REASONS.length + 1 - i,
    );
  }
}

/** A real `pull_request.closed` payload, merged (or not) into `base`. */
function closedPayload(repo: { name: string; id: number }, merged: boolean, base = 'main') {
  const payload = inRepository(webhookExample('pull_request', 'closed'), repo);
  Object.assign(objectAt(payload, 'repository'), { default_branch: 'main' });
  Object.assign(objectAt(objectAt(payload, 'repository'), 'owner'), { login: OWNER });
  payload.installation = { id: INSTALLATION_ID };
  const pull = objectAt(payload, 'pull_request');
  Object.assign(pull, { merged });
  Object.assign(objectAt(pull, 'base'), { ref: base });
  return payload;
}

async function send(payload: Record<string, unknown>): Promise<void> {
  expect(await session.send('pull_request', payload)).toBe(200);
  await session.app.idle();
  expect(session.double.invalidRequests()).toEqual([]);
  expect(session.double.forbiddenRequests()).toEqual([]);
  expect(session.double.unexpectedRequests()).toEqual([]);
}

function issueWrites() {
  return session.double
    .requests()
    .filter((request) => request.operationId?.startsWith('issues/'))
    .map((request) => ({
      operation: request.operationId,
      path: request.path,
      body: request.body as { title?: string; body?: string },
    }));
}

async function ledgerRecords(repo: { id: number }) {
  return (await readJournal(appLedgerPath(session.dataDir, repo.id))).entries.map(
    (entry) => entry.record,
  );
}

describe('the App after a merge into the default branch', () => {
  it("opens one issue with learn's proposal from its ledger, shown never rendered; the same week posts nothing more", async () => {
    await writeOverrides(ON);
    await send(closedPayload(ON, true));

    const [created, ...others] = issueWrites();
    expect(others).toEqual([]);
    expect(created?.operation).toBe('issues/create');
    expect(created?.body.title).toBe('AUREUS learn: policy proposal');
    const body = created?.body.body ?? '';
    // The diff a maintainer applies: the rule overridden five times goes to warn.
    expect(body).toContain('-    severity: error # cycles block');
    expect(body).toContain('+    severity: warn # cycles block');
    expect(body).toContain("the App's ledger#");
    expect(body).toContain('maintainer-3');
    // Every ledger text sits in one code block whose fence is longer than any backtick run in it.
    const fence = body.match(/^(`{3,})text$/m)?.[1] ?? '';
    expect(fence.length).toBeGreaterThan(4);
    const block = body.slice(body.indexOf(`${fence}text`));
    expect(block.trimEnd().endsWith(fence)).toBe(true);
    expect(body.slice(0, body.indexOf(fence))).not.toMatch(/@octocat|evil\.example|<!--/);
    expect(body).toContain('reads no git history');

    const proposals = (await ledgerRecords(ON)).filter(
      (record) => record.kind === 'learn-proposal',
    );
    expect(proposals).toEqual([
      expect.objectContaining({
        issue: expect.any(Number),
        edits: ['forbidden_patterns.circular_dependency.severity'],
      }),
    ]);

    session.double.reset();
    await send(closedPayload(ON, true));
    expect(issueWrites()).toEqual([]);
  });

  it('updates its own open proposal a week later', async () => {
    // The same repository on GitHub, a ledger of its own in the App (ledgers go by id).
    const repo = { name: ON.name, id: 7103 };
    await writeOverrides(repo);
    session.double.addIssue({
      owner: OWNER,
      repo: repo.name,
      number: 40,
      title: 'AUREUS learn: policy proposal',
      body: 'last week',
      updatedAt: new Date(Date.now() - 8 * DAY_MS).toISOString(),
      user: { login: 'aureus[bot]', id: APP_BOT_ID, type: 'Bot' },
    });
    await writeLedger(repo, { kind: 'learn-proposal', issue: 40, edits: [] }, 8);
    await send(closedPayload(repo, true));
    expect(issueWrites().map((write) => `${write.operation} ${write.path}`)).toEqual([
      `issues/get /repos/${OWNER}/${repo.name}/issues/40`,
      `issues/update /repos/${OWNER}/${repo.name}/issues/40`,
    ]);
  });

  it('opens a new proposal when a maintainer closed the last one', async () => {
    const repo = { name: ON.name, id: 7105 };
    await writeOverrides(repo);
    session.double.addIssue({
      owner: OWNER,
      repo: ON.name,
      number: 42,
      title: 'AUREUS learn: policy proposal',
      body: 'declined',
      updatedAt: new Date(Date.now() - 8 * DAY_MS).toISOString(),
      user: { login: 'aureus[bot]', id: APP_BOT_ID, type: 'Bot' },
      state: 'closed',
    });
    await writeLedger(repo, { kind: 'learn-proposal', issue: 42, edits: [] }, 8);
    await send(closedPayload({ name: ON.name, id: repo.id }, true));
    expect(issueWrites().map((write) => write.operation)).toEqual(['issues/get', 'issues/create']);
  });

  it("never writes to a person's issue named like a proposal: it opens its own", async () => {
    const repo = { name: ON.name, id: 7104 };
    await writeOverrides(repo);
    session.double.addIssue({
      owner: OWNER,
      repo: ON.name,
      number: 41,
      title: 'AUREUS learn: policy proposal',
      body: 'a person wrote this',
      updatedAt: new Date(Date.now() - 8 * DAY_MS).toISOString(),
      user: { login: 'mallory', id: 31337, type: 'User' },
    });
    await writeLedger(repo, { kind: 'learn-proposal', issue: 41, edits: [] }, 8);
    await send(closedPayload({ name: ON.name, id: repo.id }, true));
    expect(issueWrites().map((write) => write.operation)).toEqual(['issues/get', 'issues/create']);
  });

  it('posts nothing when the policy does not opt in, and reads nothing for a pull request closed unmerged or merged elsewhere', async () => {
    await writeOverrides(OFF);
    await send(closedPayload(OFF, true));
    expect(issueWrites()).toEqual([]);
    expect((await ledgerRecords(OFF)).some((record) => record.kind === 'learn-proposal')).toBe(
      false,
    );

    session.double.reset();
    await send(closedPayload(ON, false));
    await send(closedPayload(ON, true, 'release'));
    expect(session.double.requests()).toEqual([]);
  });
});
