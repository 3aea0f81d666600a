import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useImplementSession } from '../support/implement-session.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/** A class of `methods` one-line methods: `methods + 2` lines of code. */
const classOf = (name: string, methods: number) =>
  [
    `export class ${name} {`,
    ...Array.from({ length: methods }, (_, i) => `  m${i}() { return ${i}; }`),
    '}',
    '',
  ].join('\n');
const LEGACY = classOf('Legacy', 8);
const estimate = (lines: number) => ({
  files_added: 1,
  files_changed: 1,
  lines,
  abstractions: 0,
  dependencies: 0,
});
const plan = (lines: number) =>
  ({
    type: 'tool_use',
    name: 'submit_plan',
    input: { steps: ['add it'], files: ['src/feature.js'], estimate: estimate(lines) },
  }) as const;
const verify = { blocks: [{ type: 'tool_use', name: 'request_verify', input: {} }] } as const;
const finish = {
  blocks: [{ type: 'tool_use', name: 'finish', input: { summary: 'Done.' } }],
} as const;
const create = (path: string, content: string) =>
  ({ type: 'tool_use', name: 'create_file', input: { path, content } }) as const;
const write = (path: string, content: string) =>
  ({ type: 'tool_use', name: 'file_write', input: { path, content } }) as const;

const session = useImplementSession('sk-ant-test-gates');
const { repos } = session;

async function fixture(policy: readonly string[]): Promise<Repo> {
  const repo = await makeRepo('implement-gates');
  repos.push(repo);
  repo.write('package.json', '{ "type": "module" }\n');
  repo.write('src/legacy.js', LEGACY);
  repo.write(
    '.aureus/policy.yaml',
    [
      'version: 1',
      ...policy,
      'model_provider:',
      '  provider: anthropic',
      `  base_url: ${session.server.url}`,
      '',
    ].join('\n'),
  );
  repo.commit('base');
  return repo;
}

const implement = (repo: Repo) =>
  runCliInProcess(['implement', 'Add a feature', '--format', 'json', '--repo', repo.dir], repo.dir);

/** Every tool result the model was sent, parsed, from the request after the given one. */
function resultsSentAfter(request: number): Array<Record<string, unknown>> {
  const messages = session.server.requests[request + 1]?.body.messages ?? [];
  const last = messages.at(-1)?.content;
  if (!Array.isArray(last)) return [];
  return last.flatMap((block: unknown) =>
    typeof block === 'object' &&
    block !== null &&
    'content' in block &&
    typeof block.content === 'string'
      ? [JSON.parse(block.content)]
      : [],
  );
}

describe('aureus implement: the safety gate runs the critic on the would-be files', () => {
  it('refuses a write that adds a god class, with the finding, before writing it; a write beside a baseline god class passes', async () => {
    const repo = await fixture(['forbidden_patterns:', '  god_class:', '    max_loc: 6']);
    const first = session.server.requests.length;
    session.server.script(
      { blocks: [plan(20)] },
      { blocks: [create('src/feature.js', classOf('Feature', 8))] },
      {
        blocks: [
          create('src/feature.js', 'export const feature = () => 1;\n'),
          write('src/legacy.js', `${LEGACY}export const extra = 2;\n`),
        ],
      },
      verify,
      finish,
    );
    const run = await implement(repo);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.status).toBe('done');

    const [refused] = resultsSentAfter(first + 1);
    expect(refused).toMatchObject({ ok: false, refusedBy: 'safety' });
    expect(String(refused?.error)).toContain('god_class at src/feature.js:1');
    expect(String(refused?.error)).toContain('class Feature spans 10 lines of code');
    expect(String(refused?.hint)).toContain('Nothing was written');
    expect(resultsSentAfter(first + 2)).toEqual([
      expect.objectContaining({ ok: true }),
      expect.objectContaining({ ok: true }),
    ]);

    // The refused class never reached the branch; the allowed writes did.
    expect(repo.git('show', `${report.branch}:src/feature.js`)).toBe(
      'export const feature = () => 1;',
    );
    expect(repo.git('show', `${report.branch}:src/legacy.js`)).toContain('extra');
    const trajectory = readFileSync(
      join(repo.dir, '.aureus', 'local', 'runs', report.id, 'trajectory.jsonl'),
      'utf8',
    );
    expect(trajectory).toContain('"refusedBy":"safety"');

    // The plan's estimate priced like a check (20 lines, one new file), beside the actual cost.
    expect(report.estimatedPoints).toBe(25);
    expect(typeof report.points).toBe('number');
    const ledger = readFileSync(join(repo.dir, '.aureus', 'local', 'ledger.jsonl'), 'utf8');
    expect(ledger).toContain(`"estimatedPoints":25,"points":${report.points}`);
    expect(ledger).toContain(`"variance":${report.points - 25}`);
  });
});

describe('aureus implement: the critic sees the whole would-be tree', () => {
  it('refuses a write that closes an import cycle through a file the run created earlier', async () => {
    const repo = await fixture([]);
    repo.write('src/b.js', 'export const b = 1;\n');
    repo.commit('b');
    const first = session.server.requests.length;
    session.server.script(
      { blocks: [plan(4)] },
      { blocks: [create('src/a.js', "import { b } from './b.js';\nexport const a = b + 1;\n")] },
      {
        blocks: [
          write(
            'src/b.js',
            "import { a } from './a.js';\nexport const b = 1;\nexport const c = a;\n",
          ),
        ],
      },
      { text: 'Stopping.' },
    );
    const run = await implement(repo);
    expect(run.code).toBe(1);
    expect(resultsSentAfter(first + 1)).toEqual([expect.objectContaining({ ok: true })]);
    const [refused] = resultsSentAfter(first + 2);
    expect(refused).toMatchObject({ ok: false, refusedBy: 'safety' });
    expect(String(refused?.error)).toContain('circular_dependency at src/');
    const report = JSON.parse(run.stdout);
    expect(repo.git('show', `${report.branch}:src/b.js`)).toBe('export const b = 1;');
  });
});

const lines = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `export const ${prefix}${i} = ${i};\n`).join('');

describe("aureus implement: the plan's estimate in points, and its allocation held", () => {
  it('refuses a plan over budgets.change.block with its figures, then holds the run to the accepted plan plus its margin', async () => {
    const repo = await fixture(['budgets:', '  change:', '    warn: 80', '    block: 100']);
    const first = session.server.requests.length;
    session.server.script(
      { blocks: [plan(120)] },
      { blocks: [plan(10)] },
      { blocks: [create('src/feature.js', lines('f', 10))] },
      { blocks: [write('src/legacy.js', `${LEGACY}${lines('g', 5)}`)] },
      { text: 'The plan was too small; stopping.' },
    );
    const run = await implement(repo);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      status: 'stopped: the model ended without finishing',
      estimatedPoints: 15,
    });

    const [tooBig] = resultsSentAfter(first);
    expect(tooBig).toMatchObject({ ok: false, refusedBy: 'budget' });
    expect(String(tooBig?.error)).toBe(
      "The plan's estimate costs 125 points (loc 120, files 5), over budgets.change.block (100).",
    );
    expect(resultsSentAfter(first + 1)).toEqual([
      {
        ok: true,
        output: { accepted: true, phase: 'act', estimatedPoints: 15, allowedPoints: 18.75 },
      },
    ]);
    // 10 lines and a new file (16 points with the write's own) fit; 5 lines more do not.
    expect(resultsSentAfter(first + 2)).toEqual([expect.objectContaining({ ok: true })]);
    const [overPlan] = resultsSentAfter(first + 3);
    expect(overPlan).toMatchObject({ ok: false, refusedBy: 'budget' });
    expect(String(overPlan?.error)).toContain("would cost 21 points, over the plan's 15 plus 25%");
    expect(repo.git('show', `${report.branch}:src/legacy.js`)).not.toContain('g0');
  });
});

describe('aureus implement: tier 2 on a terminal', () => {
  it('asks the operator before each tier 2 action and runs it only on their yes', async () => {
    const repo = await fixture(['project:', '  stack:', '    test_command: [node, --test]']);
    const first = session.server.requests.length;
    const shell = {
      blocks: [{ type: 'tool_use', name: 'shell_exec', input: { argv: ['node', '--test'] } }],
    } as const;
    session.server.script({ blocks: [plan(1)] }, shell, shell, { text: 'Stopping here.' });
    const questions: string[] = [];
    const answers = ['n', 'y'];
    const run = await runCliInProcess(
      ['implement', 'Run the tests', '--format', 'json', '--repo', repo.dir],
      repo.dir,
      async (question) => {
        questions.push(question);
        return answers.shift() ?? '';
      },
    );
    expect(run.stderr).toBe('');
    expect(questions).toEqual([
      'Allow shell_exec node --test? [y/N] ',
      'Allow shell_exec node --test? [y/N] ',
    ]);
    const [denied] = resultsSentAfter(first + 1);
    expect(denied).toMatchObject({
      ok: false,
      refusedBy: 'tier',
      error: 'The operator did not allow this tier 2 action.',
    });
    const [allowed] = resultsSentAfter(first + 2);
    expect(allowed).toMatchObject({ ok: true });
  });

  it('asks nothing of a run that is not interactive: tier 2 is denied without --yes', async () => {
    const repo = await fixture(['project:', '  stack:', '    test_command: [node, --test]']);
    const first = session.server.requests.length;
    session.server.script(
      { blocks: [plan(1)] },
      { blocks: [{ type: 'tool_use', name: 'shell_exec', input: { argv: ['node', '--test'] } }] },
      { text: 'Stopping here.' },
    );
    await implement(repo);
    expect(resultsSentAfter(first + 1)).toEqual([
      expect.objectContaining({
        refusedBy: 'tier',
        error: 'Tier 2 actions need approval: the run is not interactive and --yes was not given.',
      }),
    ]);
  });
});
