import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { makeRepo } from '../support/git-fixture.js';
import { useImplementSession } from '../support/implement-session.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

const call = (name: string, input: unknown) => ({
  blocks: [{ type: 'tool_use' as const, name, input }],
});
const PLAN = call('submit_plan', {
  steps: ['shorten sum'],
  files: ['src/sum.js'],
  estimate: { files_added: 0, files_changed: 1, lines: 2, abstractions: 0, dependencies: 0 },
});
const WRITE = call('file_write', {
  path: 'src/sum.js',
  content: 'export const sum = (a, b) => a + b;\n',
});

// A key shaped like a real one: the scrubber removes any 8-character slice of a known secret,
// so a key spelled from words (`…-reflection`) would redact those words in the prompts.
const session = useImplementSession('sk-ant-test-Qx7rVb2Lp9Wd');
const { repos } = session;

describe('aureus implement: the reflection turn', () => {
  it('every reflect_every_actions actions shows the model its notes, keeps its decisions and blockers, and replans or stops as it answers', async () => {
    const repo = await makeRepo('implement-reflection');
    repos.push(repo);
    repo.write('package.json', '{ "type": "module" }\n');
    repo.write('src/sum.js', 'export function sum(a, b) {\n  return a + b;\n}\n');
    repo.write(
      '.aureus/policy.yaml',
      [
        'version: 1',
        'cost_thresholds:',
        '  reflect_every_actions: 2',
        'model_provider:',
        '  provider: anthropic',
        `  base_url: ${session.server.url}`,
        '',
      ].join('\n'),
    );
    repo.commit('base');
    const first = session.server.requests.length;
    session.server.script(
      PLAN,
      WRITE,
      // The reflection is due: anything but reflect is refused.
      call('file_read', { path: 'src/sum.js' }),
      call('reflect', { decision: 'replan', decisions: ['sum becomes an arrow function'] }),
      PLAN,
      call('git_diff', {}),
      call('reflect', { decision: 'stop', blockers: ['the task needs a product decision'] }),
    );
    const run = await runCliInProcess(
      ['implement', 'Shorten sum', '--format', 'json', '--repo', repo.dir],
      repo.dir,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      status: 'stopped by the model at a reflection',
      summary: 'the task needs a product decision',
    });

    const asked = session.server.requests[first + 2];
    expect(asked?.body.tools?.map((tool) => tool.name)).toEqual(['reflect']);
    expect(asked?.raw).toContain('Reflection after 2 actions. Your goals (goals.md):');
    expect(asked?.raw).toContain('Shorten sum');
    expect(asked?.raw).toContain('shorten sum');
    expect(session.server.requests[first + 3]?.raw).toContain(
      'A reflection is due: nothing else runs until you call reflect.',
    );
    // Replanning sent the run back to Gather, where submit_plan is offered again.
    expect(session.server.requests[first + 4]?.body.tools?.map((tool) => tool.name)).toContain(
      'submit_plan',
    );

    const notes = join(repo.dir, '.aureus', 'local', 'runs', report.id);
    expect(readFileSync(join(notes, 'decisions.md'), 'utf8')).toBe(
      '## After 2 actions (replan)\n\n- sum becomes an arrow function\n\n',
    );
    expect(readFileSync(join(notes, 'blockers.md'), 'utf8')).toBe(
      '## After 2 actions (stop)\n\n- the task needs a product decision\n\n',
    );
    // The work done before stopping stays on the branch.
    expect(repo.git('show', `${report.branch}:src/sum.js`)).toContain('=>');
  });
});
