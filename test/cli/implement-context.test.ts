import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { makeRepo } from '../support/git-fixture.js';
import { useImplementSession } from '../support/implement-session.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import type { RecordedModelRequest } from '../support/scripted-model-server.js';

const WINDOW = 16000;
const PARTS = 8;
const call = (name: string, input: unknown) => ({
  blocks: [{ type: 'tool_use' as const, name, input }],
});
/** A module of about 1.8 kB whose every line names it, so a request shows whether it holds it. */
const part = (n: number) =>
  Array.from(
    { length: 40 },
    (_, line) => `export const part${n}Line${line} = 'content of part ${n}';\n`,
  ).join('');
const SUM = 'export function sum(a, b) {\n  return a + b;\n}\n';
const SUM_TEST = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sum } from '../src/sum.js';\n\ntest('sum', () => assert.equal(sum(2, 3), 5));\n`;

const session = useImplementSession('sk-ant-test-context');
const { repos } = session;

async function repoWith(name: string, window: number) {
  const repo = await makeRepo(name);
  repos.push(repo);
  repo.write('package.json', '{ "type": "module" }\n');
  repo.write('src/sum.js', SUM);
  repo.write('test/sum.test.js', SUM_TEST);
  for (let n = 1; n <= PARTS; n += 1) repo.write(`src/part-${n}.js`, part(n));
  // Alone over a quarter of the window: its result is cut head and tail.
  repo.write('src/big.js', part(99).repeat(4));
  repo.write(
    '.aureus/policy.yaml',
    [
      'version: 1',
      'project:',
      '  stack:',
      '    test_command: [node, --test]',
      'cost_thresholds:',
      `  context_tokens: ${window}`,
      '  reflect_every_actions: 100',
      'model_provider:',
      '  provider: anthropic',
      `  base_url: ${session.server.url}`,
      '  max_tokens: 1000',
      '',
    ].join('\n'),
  );
  repo.commit('base');
  return repo;
}

/** The text of a request's first message: the pinned set and the summary of earlier turns. */
function pinnedOf(request: RecordedModelRequest | undefined): string {
  const first = request?.body.messages?.[0]?.content;
  return JSON.stringify(first ?? '');
}

describe('aureus implement: the context budget', () => {
  it('keeps the pinned set in every request, drops the files read least recently for a stub, summarizes old turns and stays under the window', async () => {
    const repo = await repoWith('implement-context', WINDOW);
    const first = session.server.requests.length;
    session.server.script(
      // Out of phase: a refusal the summary must keep.
      call('file_write', { path: 'src/sum.js', content: 'export const sum = 0;\n' }),
      call('file_read', { path: 'src/big.js' }),
      ...Array.from({ length: PARTS }, (_, at) =>
        call('file_read', { path: `src/part-${at + 1}.js` }),
      ),
      call('submit_plan', {
        steps: ['make sum an arrow function'],
        files: ['src/sum.js'],
        estimate: { files_added: 0, files_changed: 1, lines: 1, abstractions: 0, dependencies: 0 },
      }),
      call('file_read', { path: 'src/part-2.js' }),
      call('file_write', { path: 'src/sum.js', content: 'export const sum = (a, b) => a + b;\n' }),
      call('request_verify', {}),
      call('finish', { summary: 'sum is an arrow function.' }),
    );
    const run = await runCliInProcess(
      ['implement', 'Make sum an arrow function', '--format', 'json', '--repo', repo.dir],
      repo.dir,
    );
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout);
    // The run adds no test for the source it changes: test quality keeps it from done.
    expect(report).toMatchObject({
      status: 'failed verification',
      tests: { exitCode: 0 },
      votes: { testQuality: { vote: 'request-changes' } },
    });
    expect(run.code).toBe(1);

    const requests = session.server.requests.slice(first, first + PARTS + 7);
    expect(requests).toHaveLength(PARTS + 7);
    for (const request of requests) {
      // The pinned set opens every request, and no request passes the window.
      expect(pinnedOf(request)).toContain('Task:\\nMake sum an arrow function');
      expect(pinnedOf(request)).toContain('Budgets and rules:');
      expect(Buffer.byteLength(request.raw)).toBeLessThanOrEqual(WINDOW);
    }
    // Once accepted, the plan is pinned as well.
    for (const request of requests.slice(PARTS + 3))
      expect(pinnedOf(request)).toContain('make sum an arrow function');

    // A result alone over its share is cut head and tail with the tools' marker.
    expect(requests[2]?.raw).toMatch(/bytes omitted\]…/);
    // The working set: part 1 was dropped for a stub as later files were read.
    const last = requests.at(-1)?.raw ?? '';
    expect(last).not.toContain('content of part 1');
    expect(requests.map((request) => request.raw).join('\n')).toContain(
      'src/part-1.js: read at turn 3, dropped; read it again if needed',
    );
    // Older turns are summarized, each decision kept: the refusal, the reads.
    expect(pinnedOf(requests.at(-1))).toContain('Earlier in this run (summarized):');
    expect(pinnedOf(requests.at(-1))).toContain(
      'turn 1: file_write src/sum.js → refused by phase: file_write is not offered in the gather phase.',
    );
    expect(pinnedOf(requests.at(-1))).toContain('turn 3: file_read src/part-1.js → ok');
    // Read again, part 2 is back in full.
    expect(last).toContain('content of part 2');

    const trajectory = readFileSync(
      join(repo.dir, '.aureus', 'local', 'runs', report.id, 'trajectory.jsonl'),
      'utf8',
    );
    expect(trajectory).toContain('"kind":"context"');
    expect(repo.git('show', `${report.branch}:src/sum.js`)).toContain('=>');
  });

  it('stops with an honest status when even the pinned set cannot fit, and sends nothing', async () => {
    const repo = await repoWith('implement-context-stop', 3000);
    const first = session.server.requests.length;
    const run = await runCliInProcess(
      ['implement', 'Make sum an arrow function', '--format', 'json', '--repo', repo.dir],
      repo.dir,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.status).toBe('stopped at cost_thresholds.context_tokens');
    expect(report.summary).toMatch(/over cost_thresholds\.context_tokens \(3000\)/);
    expect(session.server.requests.length).toBe(first);
  });
});
