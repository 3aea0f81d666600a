import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { makeRepo } from '../support/git-fixture.js';
import { useImplementSession } from '../support/implement-session.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

const CORE = 'export function core() {\n  return 21;\n}\n';
/** A one-use helper reflexion inlines. */
const FEATURE = `import { core } from './core.js';

function twice(value) {
  return value * 2;
}

export function feature() {
  return twice(core());
}
`;
const FEATURE_TEST = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { feature } from '../src/feature.js';\n\ntest('feature', () => assert.equal(feature(), 42));\n`;

const session = useImplementSession('sk-ant-test-reflexion');
const { repos } = session;

describe('aureus implement: reflexion inside the run', () => {
  it('after Verify passes on a change over simplification.triggers.added_loc, commits the verified simplifications, verifies again and lists them', async () => {
    const repo = await makeRepo('implement-reflexion');
    repos.push(repo);
    repo.write('package.json', '{ "type": "module" }\n');
    repo.write('src/core.js', CORE);
    repo.write(
      '.aureus/policy.yaml',
      [
        'version: 1',
        'project:',
        '  stack:',
        '    test_command: [node, --test]',
        'simplification:',
        '  triggers:',
        '    added_loc: 3',
        'model_provider:',
        '  provider: anthropic',
        `  base_url: ${session.server.url}`,
        '',
      ].join('\n'),
    );
    repo.commit('base');
    const call = (name: string, input: unknown) => ({
      blocks: [{ type: 'tool_use' as const, name, input }],
    });
    session.server.script(
      call('submit_plan', {
        steps: ['add feature'],
        files: ['src/feature.js', 'test/feature.test.js'],
        estimate: { files_added: 2, files_changed: 0, lines: 8, abstractions: 0, dependencies: 0 },
      }),
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'create_file',
            input: { path: 'src/feature.js', content: FEATURE },
          },
          {
            type: 'tool_use',
            name: 'create_file',
            input: { path: 'test/feature.test.js', content: FEATURE_TEST },
          },
        ],
      },
      call('request_verify', {}),
      call('finish', { summary: 'Added feature.' }),
      call('vote', { vote: 'approve', reasons: ['small and tested'] }),
    );
    const run = await runCliInProcess(
      ['implement', 'Add feature', '--format', 'json', '--repo', repo.dir],
      repo.dir,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ status: 'done', tests: { exitCode: 0 } });
    expect(report.simplifications).toEqual([
      expect.objectContaining({
        pass: 'inline-trivial-function',
        path: 'src/feature.js',
        points: expect.any(Number),
      }),
    ]);
    expect(report.simplifications[0].points).toBeLessThan(0);

    // One simplification commit on top of the verified work, and the branch verified with it.
    const subjects = repo.git('log', '--format=%s', `HEAD..${report.branch}`).split('\n');
    expect(subjects[0]).toBe('aureus: simplify');
    expect(subjects).toHaveLength(2);
    expect(repo.git('show', `${report.branch}:src/feature.js`)).not.toContain('function twice');
    const trajectory = readFileSync(
      join(repo.dir, '.aureus', 'local', 'runs', report.id, 'trajectory.jsonl'),
      'utf8',
    );
    expect(trajectory).toContain('"kind":"reflexion"');
    expect(trajectory).toContain('"kept":true');
    // The model was told what reflexion did before it finished (the last request is the review).
    expect(session.server.requests.at(-2)?.raw).toContain('Inline');
  });

  it('leaves out a simplification that would edit a protected path', async () => {
    const repo = await makeRepo('implement-reflexion-protected');
    repos.push(repo);
    // tools/ names the interface the run adds; the policy protects it.
    const report = [
      "import { type Shape, Square } from '../src/shape.js';",
      '',
      'export function describe(shape: Shape): string {',
      '  return String(shape.area());',
      '}',
      '',
      'export const unit = describe(new Square(1));',
      '',
    ].join('\n');
    repo.write('tools/report.ts', report);
    repo.write(
      '.aureus/policy.yaml',
      [
        'version: 1',
        'forbidden_patterns:',
        '  premature_abstraction: { severity: warn }',
        'permissions:',
        '  protected_paths: [tools/**]',
        // The first file under src/ opens the module `src`, priced with the interface.
        'cost_thresholds:',
        '  action_block: 100',
        'model_provider:',
        '  provider: anthropic',
        `  base_url: ${session.server.url}`,
        '',
      ].join('\n'),
    );
    repo.commit('base');
    const shape = [
      'export interface Shape {',
      '  area(): number;',
      '}',
      '',
      'export class Square implements Shape {',
      '  constructor(private readonly side: number) {}',
      '  area(): number {',
      '    return this.side * this.side;',
      '  }',
      '}',
      '',
    ].join('\n');
    const call = (name: string, input: unknown) => ({
      blocks: [{ type: 'tool_use' as const, name, input }],
    });
    session.server.script(
      call('submit_plan', {
        steps: ['add shapes'],
        files: ['src/shape.ts'],
        estimate: {
          files_added: 1,
          files_changed: 0,
          lines: 8,
          abstractions: 1,
          dependencies: 0,
          modules: 1,
        },
      }),
      call('create_file', { path: 'src/shape.ts', content: shape }),
      call('request_verify', {}),
      call('finish', { summary: 'Added shapes.' }),
      call('vote', { vote: 'approve', reasons: ['small and tested'] }),
    );
    const run = await runCliInProcess(
      ['implement', 'Add shapes', '--format', 'json', '--repo', repo.dir],
      repo.dir,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.simplifications).toEqual([]);
    expect(repo.git('show', `${result.branch}:tools/report.ts`)).toBe(report.trimEnd());
    const trajectory = readFileSync(
      join(repo.dir, '.aureus', 'local', 'runs', result.id, 'trajectory.jsonl'),
      'utf8',
    );
    expect(trajectory).toContain('"kind":"reflexion"');
  });
});
