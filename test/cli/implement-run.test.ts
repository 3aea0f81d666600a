import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import {
  type ScriptedModelServer,
  startScriptedModelServer,
} from '../support/scripted-model-server.js';

const API_KEY = 'sk-ant-test-implement-key-0000';
const CANARY = 'canary-Zq8vL2xR7mK4pT9w';

const SETTINGS = `// deploy token: ${CANARY}\nexport const retries = 3;\n`;
const SUM = `export function sum(a, b) {\n  return a + b;\n}\n`;
const SUM_TEST = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sum } from '../src/sum.js';\n\ntest('sum', () => assert.equal(sum(2, 3), 5));\n`;
const WITH_SUBTRACT = `${SUM}\nexport function subtract(a, b) {\n  return a - b;\n}\n`;
const SUBTRACT_TEST = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { subtract } from '../src/sum.js';\n\ntest('subtract', () => assert.equal(subtract(5, 3), 2));\n`;

let restoreGit: () => Promise<void>;
let server: ScriptedModelServer;
let repo: Repo & { remove(): Promise<void> };
const saved: Record<string, string | undefined> = {};

function setEnv(name: string, value: string): void {
  saved[name] = process.env[name];
  process.env[name] = value;
}

beforeAll(async () => {
  restoreGit = await isolateGit();
  server = await startScriptedModelServer();
  repo = await makeRepo('implement');
  repo.write('package.json', '{ "type": "module" }\n');
  repo.write('src/sum.js', SUM);
  repo.write('src/settings.js', SETTINGS);
  repo.write('test/sum.test.js', SUM_TEST);
  repo.write('.gitignore', 'node_modules/\n');
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
  setEnv('ANTHROPIC_API_KEY', API_KEY);
  setEnv('DEPLOY_TOKEN', CANARY);
});

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await server.close();
  await repo.remove();
  await restoreGit();
});

describe('aureus implement', () => {
  it('goes gather → plan → act → tests → check to a branch that passes aureus check, leaving the user’s copy untouched and no secret with the model', async () => {
    server.script(
      {
        blocks: [
          { type: 'tool_use', name: 'file_read', input: { path: 'src/sum.js' } },
          { type: 'tool_use', name: 'file_read', input: { path: 'src/settings.js' } },
        ],
      },
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'submit_plan',
            input: {
              steps: ['add subtract', 'test it'],
              files: ['src/sum.js', 'test/subtract.test.js'],
              estimate: {
                files_added: 1,
                files_changed: 1,
                lines: 8,
                abstractions: 0,
                dependencies: 0,
              },
            },
          },
        ],
      },
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'file_write',
            input: { path: '.github/workflows/x.yml', content: 'on: push\n' },
          },
          { type: 'tool_use', name: 'shell_exec', input: { argv: ['node', '--test'] } },
        ],
      },
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'file_write',
            input: { path: 'src/sum.js', content: WITH_SUBTRACT },
          },
          {
            type: 'tool_use',
            name: 'create_file',
            input: { path: 'test/subtract.test.js', content: SUBTRACT_TEST },
          },
        ],
      },
      { blocks: [{ type: 'tool_use', name: 'request_verify', input: {} }] },
      { blocks: [{ type: 'tool_use', name: 'finish', input: { summary: 'Added subtract.' } }] },
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'vote',
            input: { vote: 'approve', reasons: ['subtract is small and tested'] },
          },
        ],
      },
    );
    const head = repo.git('rev-parse', 'HEAD');
    const branch = repo.git('symbolic-ref', 'HEAD');
    const status = repo.git('status', '--porcelain', '--untracked-files=all');
    const index = readFileSync(join(repo.dir, '.git', 'index'));

    const run = await runCliInProcess(
      ['implement', 'Add a subtract function', '--format', 'json', '--repo', repo.dir],
      repo.dir,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ status: 'done', verdict: expect.stringMatching(/pass|warn/) });
    expect(report.files).toEqual(['src/sum.js', 'test/subtract.test.js']);
    expect(report.tests).toEqual({ argv: ['node', '--test'], exitCode: 0 });
    expect(report.spend.calls).toBe(7);
    expect(report.votes.review.vote).toBe('approve');

    // The refusals went back to the model in the next request.
    const afterRefusals = server.requests[3]?.raw ?? '';
    expect(afterRefusals).toContain('"refusedBy\\":\\"path\\"');
    expect(afterRefusals).toContain('"refusedBy\\":\\"tier\\"');

    // The branch's commits pass aureus check under the base policy.
    const check = await runCliInProcess(
      ['check', '--base', head, '--head', report.branch, '--repo', repo.dir],
      repo.dir,
    );
    expect(check.code).toBe(0);
    expect(repo.git('show', `${report.branch}:src/sum.js`)).toContain('subtract');

    // The user's branch, index and working tree are as they were.
    expect(repo.git('rev-parse', 'HEAD')).toBe(head);
    expect(repo.git('symbolic-ref', 'HEAD')).toBe(branch);
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe(status);
    expect(readFileSync(join(repo.dir, '.git', 'index')).equals(index)).toBe(true);

    // One builder-run ledger entry with the spend the daily cap counts.
    const ledger = readFileSync(join(repo.dir, '.aureus', 'local', 'ledger.jsonl'), 'utf8');
    expect(ledger).toContain('"kind":"builder-run"');
    expect(ledger).toContain('"modelSpend"');

    // The canary never reached the model (any request body) or the trajectory, in any form.
    const bodies = server.requests.map((request) => request.raw).join('\n');
    expect(bodies).toContain('[REDACTED]');
    const trajectory = readFileSync(
      join(repo.dir, '.aureus', 'local', 'runs', report.id, 'trajectory.jsonl'),
      'utf8',
    );
    for (const form of [
      CANARY,
      Buffer.from(CANARY).toString('base64'),
      Buffer.from(CANARY).toString('hex'),
    ]) {
      expect(bodies).not.toContain(form);
      expect(trajectory).not.toContain(form);
    }
    expect(bodies).not.toContain(API_KEY);
  });
});
