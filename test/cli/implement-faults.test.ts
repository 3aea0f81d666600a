import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import {
  type ScriptedModelServer,
  startScriptedModelServer,
} from '../support/scripted-model-server.js';
import {
  type ScriptedOpenAiServer,
  startScriptedOpenAiServer,
} from '../support/scripted-openai-server.js';

const SUM = 'export function sum(a, b) {\n  return a + b;\n}\n';
const SUM_TEST = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sum } from '../src/sum.js';\n\ntest('sum', () => assert.equal(sum(2, 3), 5));\n`;
const WITH_SUBTRACT = `${SUM}\nexport function subtract(a, b) {\n  return a - b;\n}\n`;
// Fails on the start commit, which has no subtract: the test-quality vote's proof.
const SUBTRACT_TEST = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { subtract } from '../src/sum.js';\n\ntest('subtract', () => assert.equal(subtract(5, 3), 2));\n`;

/** The calls of a run that adds subtract and its test: plan, writes, verify, finish, and the review's vote. */
const CALLS = [
  {
    name: 'submit_plan',
    input: {
      steps: ['add subtract'],
      files: ['src/sum.js', 'test/subtract.test.js'],
      estimate: { files_added: 1, files_changed: 1, lines: 9, abstractions: 0, dependencies: 0 },
    },
  },
  { name: 'file_write', input: { path: 'src/sum.js', content: WITH_SUBTRACT } },
  { name: 'create_file', input: { path: 'test/subtract.test.js', content: SUBTRACT_TEST } },
  { name: 'request_verify', input: {} },
  { name: 'finish', input: { summary: 'Added subtract.' } },
  { name: 'vote', input: { vote: 'approve', reasons: ['small and tested'] } },
] as const;
const asMessages = (calls: ReadonlyArray<{ name: string; input: unknown }>) =>
  calls.map((call) => ({ blocks: [{ type: 'tool_use' as const, ...call }] }));
const asChat = (calls: ReadonlyArray<{ name: string; input: unknown }>) =>
  calls.map((call) => ({ toolCalls: [{ name: call.name, arguments: call.input }] }));
const PRICES = [
  '  prices:',
  '    - { model: claude-build, input_usd_per_mtok: 3, output_usd_per_mtok: 15 }',
  '    - { model: qwen-build, input_usd_per_mtok: 0, output_usd_per_mtok: 0 }',
];
/** SDK retries honour retry-after: a tiny one keeps the test from waiting out a backoff. */
const unavailable = { status: 503, message: 'down', headers: { 'retry-after': '0.01' } };

let restoreGit: () => Promise<void>;
let anthropic: ScriptedModelServer;
let openai: ScriptedOpenAiServer;
const repos: Array<{ remove(): Promise<void> }> = [];
let savedKey: string | undefined;

beforeAll(async () => {
  restoreGit = await isolateGit();
  anthropic = await startScriptedModelServer();
  openai = await startScriptedOpenAiServer();
  savedKey = process.env.ANTHROPIC_API_KEY;
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test-faults';
});

afterAll(async () => {
  if (savedKey === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = savedKey;
  await anthropic.close();
  await openai.close();
  for (const repo of repos) await repo.remove();
  await restoreGit();
});

async function fixture(provider: readonly string[]): Promise<Repo> {
  const repo = await makeRepo('implement-faults');
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
      ...provider,
      ...PRICES,
      '',
    ].join('\n'),
  );
  repo.commit('base');
  return repo;
}

const anthropicFirst = () => [
  '  provider: anthropic',
  '  model: claude-build',
  `  base_url: ${anthropic.url}`,
];

async function implementDone(repo: Repo) {
  const run = await runCliInProcess(
    ['implement', 'Add subtract', '--format', 'json', '--repo', repo.dir],
    repo.dir,
  );
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const report = JSON.parse(run.stdout);
  expect(report).toMatchObject({ status: 'done', tests: { exitCode: 0 } });
  expect(repo.git('show', `${report.branch}:src/sum.js`)).toContain('subtract');
  return report;
}

function trajectoryOf(repo: Repo, id: string): string {
  return readFileSync(join(repo.dir, '.aureus', 'local', 'runs', id, 'trajectory.jsonl'), 'utf8');
}

describe('aureus implement through faults', () => {
  it('refuses an action out of its phase and tells the model which phase it belongs to', async () => {
    const repo = await fixture(anthropicFirst());
    const first = anthropic.requests.length;
    // A write before any plan, in Gather.
    anthropic.script(...asMessages([CALLS[1], ...CALLS]));
    const report = await implementDone(repo);
    const told = anthropic.requests[first + 1]?.raw ?? '';
    expect(told).toContain('refusedBy\\":\\"phase');
    expect(told).toContain('file_write is not offered in the gather phase.');
    expect(told).toContain('Use it in act; finish this phase first.');
    // The early write did not happen: the branch holds the one made in Act, in one commit.
    expect(repo.git('rev-list', '--count', `HEAD..${report.branch}`)).toBe('1');
  });

  it('answers an unknown tool and a malformed input with an error the model reads, and carries on', async () => {
    const repo = await fixture(anthropicFirst());
    const first = anthropic.requests.length;
    anthropic.script(
      ...asMessages([
        { name: 'no_such_tool', input: {} },
        { name: 'file_read', input: { file: 'src/sum.js' } },
        ...CALLS,
      ]),
    );
    const report = await implementDone(repo);
    const afterUnknown = anthropic.requests[first + 1]?.raw ?? '';
    expect(afterUnknown).toContain('there is no tool named no_such_tool.');
    const afterMalformed = anthropic.requests[first + 2]?.raw ?? '';
    expect(afterMalformed).toContain('the input of file_read is malformed');
    // Both are in the trajectory as refused actions; neither changed a file.
    const trajectory = trajectoryOf(repo, report.id);
    expect(trajectory).toContain('"tool":"no_such_tool"');
    expect(trajectory).toContain('"tool":"file_read"');
    expect(repo.git('rev-list', '--count', `HEAD..${report.branch}`)).toBe('1');
  });

  it('waits out a 429 as retry-after says and carries on', async () => {
    const repo = await fixture(anthropicFirst());
    const first = anthropic.requests.length;
    const [plan, ...rest] = asMessages(CALLS);
    if (plan === undefined) throw new Error('no plan scripted');
    anthropic.script(
      plan,
      { status: 429, message: 'slow down', headers: { 'retry-after': '0.01' } },
      ...rest,
    );
    const report = await implementDone(repo);
    expect(anthropic.requests.length - first).toBe(CALLS.length + 1);
    expect(report.spend.calls).toBe(CALLS.length);
  });

  it('goes to the fallback provider when the primary answers 5xx after its retries', async () => {
    const repo = await fixture([
      ...anthropicFirst(),
      '  breaker_failures: 1',
      '  fallback:',
      '    - provider: openai-compatible',
      '      model: qwen-build',
      `      base_url: ${openai.url}/v1`,
    ]);
    const first = { anthropic: anthropic.requests.length, openai: openai.requests.length };
    // The first call and its two retries; after one failed call the breaker skips it.
    anthropic.script(unavailable, unavailable, unavailable);
    openai.script(...asChat(CALLS));
    const report = await implementDone(repo);
    expect(anthropic.requests.length - first.anthropic).toBe(3);
    expect(openai.requests.length - first.openai).toBe(CALLS.length);
    expect(trajectoryOf(repo, report.id)).toContain('"provider":"fallback 1 (openai-compatible)"');
  });

  it('runs end to end over an OpenAI-compatible server to a branch that passes aureus check', async () => {
    const repo = await fixture([
      '  provider: openai-compatible',
      '  model: qwen-build',
      `  base_url: ${openai.url}/v1`,
    ]);
    const first = openai.requests.length;
    openai.script(...asChat(CALLS));
    const head = repo.git('rev-parse', 'HEAD');
    const report = await implementDone(repo);
    expect(report.spend).toMatchObject({ calls: CALLS.length, usd: 0 });
    expect(report.votes.review).toEqual({ vote: 'approve', reasons: ['small and tested'] });
    // Each tool result went back as a tool message answering its call.
    const sent = openai.requests[first + 1]?.body.messages ?? [];
    expect(sent.at(-1)).toMatchObject({ role: 'tool', tool_call_id: `call_${first + 1}_0` });
    const check = await runCliInProcess(
      ['check', '--base', head, '--head', report.branch, '--repo', repo.dir],
      repo.dir,
    );
    expect(check.code).toBe(0);
  });
});
