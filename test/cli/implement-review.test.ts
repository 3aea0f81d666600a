import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import { isolateGit, makeRepo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import {
  type ScriptedModelServer,
  startScriptedModelServer,
} from '../support/scripted-model-server.js';

const schema: unknown = JSON.parse(readFileSync('schemas/implement-report.schema.json', 'utf8'));
const validate = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true }).compile(
  typeof schema === 'object' && schema !== null ? schema : {},
);

const CANARY = 'canary-R3vw8kLm2Qx9';
const call = (name: string, input: unknown) => ({
  blocks: [{ type: 'tool_use' as const, name, input }],
});
const SUM = `// release token: ${CANARY}\nexport function sum(a, b) {\n  return a + b;\n}\n`;
// The model never sees the token (only [REDACTED]), and a write that carries it is refused: the
// rewrite drops the comment, whose removal the review's diff shows scrubbed.
const ARROW = 'export const sum = (a, b) => a + b;\n';
// Fails on the start commit (a function declaration) and passes once sum is an arrow function.
const ARROW_TEST = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sum } from '../src/sum.js';\n\ntest('sum is an arrow', () => assert.ok(sum.toString().includes('=>')));\n`;
const SUM_TEST = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sum } from '../src/sum.js';\n\ntest('sum', () => assert.equal(sum(2, 3), 5));\n`;

let restoreGit: () => Promise<void>;
let server: ScriptedModelServer;
const repos: Array<{ remove(): Promise<void> }> = [];
const saved: Record<string, string | undefined> = {};

function setEnv(name: string, value: string): void {
  saved[name] = process.env[name];
  process.env[name] = value;
}

beforeAll(async () => {
  restoreGit = await isolateGit();
  server = await startScriptedModelServer();
  setEnv('ANTHROPIC_API_KEY', 'sk-ant-test-review');
  setEnv('RELEASE_TOKEN', CANARY);
});

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await server.close();
  for (const repo of repos) await repo.remove();
  await restoreGit();
});

async function sumRepo(name: string) {
  const repo = await makeRepo(name);
  repos.push(repo);
  repo.write('package.json', '{ "type": "module" }\n');
  repo.write('src/sum.js', SUM);
  repo.write('test/sum.test.js', SUM_TEST);
  repo.write(
    '.aureus/policy.yaml',
    [
      'version: 1',
      'project:',
      '  stack:',
      '    test_command: [node, --test]',
      'model_provider:',
      '  provider: anthropic',
      `  base_url: ${server.url}`,
      '',
    ].join('\n'),
  );
  repo.commit('base');
  return repo;
}

describe('aureus implement: the review votes', () => {
  it('reports correctness, test quality, elegance and the advisory review with their evidence; a review that requests changes is in the report and the ledger', async () => {
    const repo = await sumRepo('implement-review');
    const first = server.requests.length;
    server.script(
      call('submit_plan', {
        steps: ['make sum an arrow function'],
        files: ['src/sum.js', 'test/sum-arrow.test.js'],
        estimate: { files_added: 1, files_changed: 1, lines: 6, abstractions: 0, dependencies: 0 },
      }),
      call('file_write', { path: 'src/sum.js', content: ARROW }),
      call('create_file', { path: 'test/sum-arrow.test.js', content: ARROW_TEST }),
      call('request_verify', {}),
      call('finish', { summary: 'sum is an arrow function.' }),
      call('vote', {
        vote: 'request-changes',
        reasons: ['the arrow function drops the named function the stack traces showed'],
      }),
    );
    const run = await runCliInProcess(
      ['implement', 'Make sum an arrow function', '--format', 'json', '--repo', repo.dir],
      repo.dir,
    );
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout);
    // The review is advisory: correctness, test quality and elegance decide that the run is done.
    expect(report.status).toBe('done');
    expect(run.code).toBe(0);
    // The JSON contract: schemas/implement-report.schema.json, version 2.
    expect(validate(report) ? [] : validate.errors).toEqual([]);
    expect(report.schemaVersion).toBe(2);
    expect(report.decidedBy).toMatch(/^correctness and test quality .* the review is advisory$/);
    expect(report.votes).toEqual({
      correctness: { vote: 'approve', reasons: ['node --test exited 0 on the branch.'] },
      testQuality: {
        vote: 'approve',
        reasons: ['test/sum-arrow.test.js fails on the start commit and passes on the branch.'],
      },
      elegance: {
        vote: 'approve',
        reasons: [
          expect.stringMatching(
            /^aureus check: pass, -?\d+(\.\d+)? points of 500 \([+-]?\d+% against the plan's \d+(\.\d+)?\)\.$/,
          ),
          'critic: 0 new or worsened findings, 0 baseline.',
          'reflexion: no verified patch left unapplied.',
        ],
      },
      review: {
        vote: 'request-changes',
        reasons: ['the arrow function drops the named function the stack traces showed'],
      },
    });
    expect(report.spend.calls).toBe(6);

    // The review's context is fresh: the task and the branch's diff, scrubbed, and one tool.
    const review = server.requests[first + 5];
    expect(review?.body.tools?.map((tool) => tool.name)).toEqual(['vote']);
    expect(review?.body.messages).toHaveLength(1);
    expect(review?.raw).toContain('Make sum an arrow function');
    expect(review?.raw).toContain('+export const sum = (a, b) => a + b;');
    expect(review?.raw).toContain('[REDACTED]');
    expect(review?.raw).not.toContain(CANARY);
    expect(review?.raw).not.toContain('submit_plan');

    const ledger = readFileSync(join(repo.dir, '.aureus', 'local', 'ledger.jsonl'), 'utf8');
    const entry = JSON.parse(ledger.trim().split('\n').at(-1) ?? '{}');
    expect(entry.record).toMatchObject({
      kind: 'builder-run',
      votes: {
        correctness: { vote: 'approve' },
        testQuality: { vote: 'approve' },
        elegance: { vote: 'approve' },
        review: {
          vote: 'request-changes',
          reasons: ['the arrow function drops the named function the stack traces showed'],
        },
      },
    });
  });

  it('requests changes from test quality, naming the test, when the new test of the run passes on the start commit too: the run is not done', async () => {
    const repo = await sumRepo('implement-review-weak-test');
    server.script(
      call('submit_plan', {
        steps: ['make sum an arrow function'],
        files: ['src/sum.js', 'test/sum-again.test.js'],
        estimate: { files_added: 1, files_changed: 1, lines: 6, abstractions: 0, dependencies: 0 },
      }),
      call('file_write', { path: 'src/sum.js', content: ARROW }),
      call('create_file', { path: 'test/sum-again.test.js', content: SUM_TEST }),
      call('request_verify', {}),
      call('finish', { summary: 'sum is an arrow function.' }),
    );
    const run = await runCliInProcess(
      ['implement', 'Make sum an arrow function', '--format', 'json', '--repo', repo.dir],
      repo.dir,
    );
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout);
    expect(report.votes.correctness.vote).toBe('approve');
    expect(report.votes.testQuality).toEqual({
      vote: 'request-changes',
      reasons: [
        'test/sum-again.test.js passes on the start commit too: it proves nothing of the change.',
      ],
    });
    expect(report.votes.review.vote).toBe('not run');
    expect(report.status).toBe('failed verification');
    expect(run.code).toBe(1);
    // The start commit's tree was a scratch worktree of the run's own: it is gone, and the
    // user's checkout is as it was.
    expect(repo.git('worktree', 'list', '--porcelain')).not.toContain('test-quality');
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('requests changes from test quality when the run changes source and adds no test', async () => {
    const repo = await sumRepo('implement-review-no-test');
    server.script(
      call('submit_plan', {
        steps: ['make sum an arrow function'],
        files: ['src/sum.js'],
        estimate: { files_added: 0, files_changed: 1, lines: 1, abstractions: 0, dependencies: 0 },
      }),
      call('file_write', { path: 'src/sum.js', content: ARROW }),
      call('request_verify', {}),
      call('finish', { summary: 'sum is an arrow function.' }),
    );
    const run = await runCliInProcess(
      ['implement', 'Make sum an arrow function', '--repo', repo.dir],
      repo.dir,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '  test quality: request-changes.\n    - no test added or changed, and the change touches src/sum.js.',
    );
    expect(run.stdout).toContain('  review (advisory): not run.');
  });
});
