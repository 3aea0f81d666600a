import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useImplementSession } from '../support/implement-session.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

const FAILING_TEST = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n\ntest('always fails', () => assert.equal(1, 2));\n`;
const PLAN = {
  type: 'tool_use',
  name: 'submit_plan',
  input: {
    steps: ['change sum'],
    files: ['src/sum.js'],
    estimate: { files_added: 0, files_changed: 1, lines: 2, abstractions: 0, dependencies: 0 },
  },
} as const;
const WRITE = {
  type: 'tool_use',
  name: 'file_write',
  input: { path: 'src/sum.js', content: 'export const sum = (a, b) => a + b;\n' },
} as const;

const session = useImplementSession('sk-ant-test-stops');
const { repos } = session;

async function fixture(policy: readonly string[]): Promise<Repo> {
  const repo = await makeRepo('implement-stops');
  repos.push(repo);
  repo.write('package.json', '{ "type": "module" }\n');
  repo.write('src/sum.js', 'export function sum(a, b) {\n  return a + b;\n}\n');
  repo.write('test/sum.test.js', FAILING_TEST);
  repo.write('.aureus/policy.yaml', ['version: 1', ...policy, ''].join('\n'));
  repo.commit('base');
  return repo;
}

const anthropic = () => [
  'model_provider:',
  '  provider: anthropic',
  `  base_url: ${session.server.url}`,
];
const implement = (repo: Repo) =>
  runCliInProcess(['implement', 'Shorten sum', '--format', 'json', '--repo', repo.dir], repo.dir);
const resume = (repo: Repo, id: string) =>
  runCliInProcess(['implement', '--resume', id, '--format', 'json', '--repo', repo.dir], repo.dir);

describe('aureus implement stops honestly', () => {
  it('cannot run without a model: exit 2, saying how to configure model_provider', async () => {
    const repo = await fixture([]);
    const run = await implement(repo);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('model_provider.provider');
    expect(repo.git('branch', '--list', 'aureus/*')).toBe('');
  });

  it('does not start beside a credential file too large to read whole: exit 2, naming it and the limit', async () => {
    const repo = await makeRepo('implement-padded-env');
    repos.push(repo);
    repo.write('src/sum.js', 'export function sum(a, b) {\n  return a + b;\n}\n');
    repo.write('.aureus/policy.yaml', ['version: 1', ...anthropic(), ''].join('\n'));
    // Padding past the read limit would otherwise hide the secret below it from the scrubber.
    repo.write('.env', `${'# padding\n'.repeat(30_000)}DEPLOY_SECRET=padded-canary-4Tq9Lx2Vw7\n`);
    repo.commit('base');
    const sent = session.server.requests.length;
    const run = await implement(repo);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '.env is larger than 262144 bytes (256 KiB), the most AUREUS reads of a credential file',
    );
    expect(session.server.requests).toHaveLength(sent);
    expect(repo.git('branch', '--list', 'aureus/*')).toBe('');
  });

  it('a spend cap reached mid-run stops it with its work kept on the branch, and --resume does not refill the run budget', async () => {
    const repo = await fixture([
      'cost_thresholds:',
      '  max_tokens_per_run: 9000',
      ...anthropic(),
      '  max_tokens: 1000',
    ]);
    session.server.script(
      { blocks: [PLAN] },
      { blocks: [WRITE], usage: { input: 6000, output: 50 } },
    );
    const run = await implement(repo);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.status).toBe('stopped at max_tokens_per_run');
    expect(report.files).toEqual(['src/sum.js']);
    expect(repo.git('show', `${report.branch}:src/sum.js`)).toContain('=>');
    const ledger = readFileSync(join(repo.dir, '.aureus', 'local', 'ledger.jsonl'), 'utf8');
    expect(ledger).toContain('"status":"stopped at max_tokens_per_run"');

    // The cap is the run's, not the invocation's: resuming stops again before any call.
    const sent = session.server.requests.length;
    const tip = repo.git('rev-parse', report.branch);
    const resumed = await resume(repo, report.id);
    expect(resumed.code).toBe(1);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'stopped at max_tokens_per_run' });
    expect(session.server.requests).toHaveLength(sent);
    expect(repo.git('rev-parse', report.branch)).toBe(tip);
  });

  it('a run stopped by a refused key resumes where it was and finishes, nothing written twice', async () => {
    const repo = await fixture(anthropic());
    session.server.script(
      { blocks: [PLAN] },
      { blocks: [WRITE] },
      { status: 401, message: 'invalid x-api-key' },
    );
    const run = await implement(repo);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('ANTHROPIC_API_KEY');
    const [id] = readdirSync(join(repo.dir, '.aureus', 'local', 'runs'));
    if (id === undefined) throw new Error('the stopped run left no run folder');

    const verify = { blocks: [{ type: 'tool_use', name: 'request_verify', input: {} }] } as const;
    const finish = { type: 'tool_use', name: 'finish', input: { summary: 'Shorter.' } } as const;
    session.server.script(verify, { blocks: [finish] });
    const resumed = await resume(repo, id);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const report = JSON.parse(resumed.stdout);
    expect(report).toMatchObject({ status: 'done' });
    expect(session.server.requests.at(-2)?.raw).toContain('resumed in the act phase');
    expect(repo.git('rev-list', '--count', `HEAD..${report.branch}`)).toBe('1');
    expect(repo.git('show', `${report.branch}:src/sum.js`)).toContain('=>');
    const trajectory = readFileSync(
      join(repo.dir, '.aureus', 'local', 'runs', id, 'trajectory.jsonl'),
      'utf8',
    );
    expect(trajectory).toContain('"kind":"resume"');
  });

  it('the cost gate refuses a write over cost_thresholds.action_block, and the model is told', async () => {
    const repo = await fixture([
      'cost_thresholds:',
      '  action_warn: 1',
      '  action_block: 3',
      ...anthropic(),
    ]);
    const long = Array.from({ length: 12 }, (_, i) => `export const n${i} = ${i};`).join('\n');
    session.server.script(
      { blocks: [PLAN] },
      { blocks: [{ ...WRITE, input: { path: 'src/sum.js', content: `${long}\n` } }] },
      { text: 'I give up.' },
    );
    const run = await implement(repo);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.status).toBe('stopped: the model ended without finishing');
    expect(report.files).toEqual([]);
    expect(session.server.requests.at(-1)?.raw).toContain('refusedBy\\":\\"cost');
    expect(session.server.requests.at(-1)?.raw).toContain('over cost_thresholds.action_block (3)');
  });

  it('a model that verifies the same failing files twice is stopped for want of progress', async () => {
    const repo = await fixture([
      'project:',
      '  stack:',
      '    test_command: [node, --test]',
      ...anthropic(),
    ]);
    const verify = { blocks: [{ type: 'tool_use', name: 'request_verify', input: {} }] } as const;
    session.server.script({ blocks: [PLAN] }, { blocks: [WRITE] }, verify, verify);
    const run = await implement(repo);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: 'stopped: no progress',
      tests: { argv: ['node', '--test'], exitCode: 1 },
    });
    // The failing evidence went back to the model before it tried again.
    expect(session.server.requests.at(-1)?.raw).toContain('verification failed');
  });
});
