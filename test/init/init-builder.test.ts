import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import {
  BUILDER_WORKFLOW_PATH,
  builderWorkflow,
  README_ACTION,
} from '../../src/init/builder-workflow.js';
import { parsePolicy } from '../../src/policy/parse-policy.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

const ACTION = 'octo-org/aureus@0123456789abcdef0123456789abcdef01234567';
const POLICY = '.aureus/policy.yaml';
const README = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md');

/** The README's copy of the builder workflow, from its first line to the block's end. */
function readmeWorkflow(): string {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf('```yaml\n# .github/workflows/aureus-builder.yml\n');
  expect(start).toBeGreaterThan(0);
  const from = start + '```yaml\n'.length;
  return text.slice(from, text.indexOf('```', from));
}

type Tree = Record<string, unknown>;
const isTree = (value: unknown): value is Tree =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
function at(value: unknown, ...path: string[]): unknown {
  let node = value;
  for (const key of path) node = isTree(node) ? node[key] : undefined;
  return node;
}
const keysAt = (value: unknown, ...path: string[]): string[] => {
  const node = at(value, ...path);
  return isTree(node) ? Object.keys(node) : [];
};
const valuesAt = (value: unknown, ...path: string[]): unknown[] => {
  const node = at(value, ...path);
  return isTree(node) ? Object.values(node) : [];
};

describe('aureus init --builder', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('init-builder');
    repo.write('src/index.ts', 'export const one = 1;\n');
    repo.commit('start');
  });
  afterEach(() => repo.remove());
  const init = (...args: string[]) => runCliInProcess(['init', ...args], repo.dir);
  const workflowFile = () => join(repo.dir, BUILDER_WORKFLOW_PATH);

  it('writes the one workflow the README shows: the two cannot drift', () => {
    expect(builderWorkflow(README_ACTION)).toBe(readmeWorkflow());
  });

  it('writes the workflow and a policy with the builder on, and says what is left to do', async () => {
    const run = await init('--yes', '--without-hooks', '--builder', '--action', ACTION);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const text = readFileSync(workflowFile(), 'utf8');
    expect(text).toBe(builderWorkflow(ACTION));
    const workflow: unknown = parse(text);
    expect(keysAt(workflow, 'on', 'workflow_dispatch', 'inputs')).toContain('trigger');
    expect(keysAt(workflow, 'jobs')).toEqual(['plan', 'show-plan', 'act', 'publish']);
    // The agent's jobs read only; only publish, which runs no model, writes.
    for (const job of ['plan', 'act']) {
      expect(at(workflow, 'jobs', job, 'permissions', 'contents')).toBe('read');
      expect(valuesAt(workflow, 'jobs', job, 'permissions')).not.toContain('write');
    }
    expect(at(workflow, 'jobs', 'publish', 'permissions')).toEqual({
      contents: 'write',
      'pull-requests': 'write',
      issues: 'write',
      // The day's caps, read again to say on the issue why a run left no report.
      actions: 'read',
    });
    // No secret in the agent's jobs but the model key; no env on a job at all.
    for (const job of ['plan', 'act']) {
      expect(at(workflow, 'jobs', job, 'env')).toBeUndefined();
      const steps = at(workflow, 'jobs', job, 'steps');
      if (!Array.isArray(steps)) throw new Error(`${job} has no steps`);
      const envs = steps.map((step) => at(step, 'env')).filter((env) => env !== undefined);
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, not a template.
      expect(envs).toEqual([{ ANTHROPIC_API_KEY: '${{ secrets.ANTHROPIC_API_KEY }}' }]);
    }
    expect(text).not.toContain('your-org');
    expect(text).toContain(`uses: octo-org/aureus/builder@${ACTION.split('@')[1]}`);

    const policy = readFileSync(join(repo.dir, POLICY), 'utf8');
    const parsed = parsePolicy(policy, POLICY);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    expect(parsed.policy.integrations.app.builder).toBe(true);
    expect(policy).toMatch(/builder: true # aureus init --builder: /);
    expect(run.stdout).toContain(`Wrote ${BUILDER_WORKFLOW_PATH}.`);
    expect(run.stdout).toContain('ANTHROPIC_API_KEY');
    expect(run.stdout).toContain('Create the label aureus:implement');
    expect(run.stdout).toContain('allow GitHub Actions to create pull requests');
  });

  it('edits an existing policy in place, keeping its comments', async () => {
    const mine = [
      '# Our policy: keep the budgets tight.',
      'version: 1',
      'integrations:',
      '  app:',
      '    builder_label: "build me" # what our team calls it',
      'budgets:',
      '  change:',
      '    warn: 40 # agreed in the March review',
      '    block: 60',
      '',
    ].join('\n');
    mkdirSync(join(repo.dir, '.aureus'));
    writeFileSync(join(repo.dir, POLICY), mine);
    const run = await init('--yes', '--without-hooks', '--builder', '--action', ACTION);
    expect(run.code).toBe(0);
    const policy = readFileSync(join(repo.dir, POLICY), 'utf8');
    expect(policy).toContain('# Our policy: keep the budgets tight.');
    expect(policy).toContain('builder_label: "build me" # what our team calls it');
    expect(policy).toContain('warn: 40 # agreed in the March review');
    expect(policy).toMatch(/ {4}builder: true # aureus init --builder: /);
    expect(run.stdout).toContain('(its comments kept)');
    expect(run.stdout).toContain('Create the label build me');
    // Again: nothing changes, and it says so.
    const again = await init('--yes', '--without-hooks', '--builder', '--action', ACTION);
    expect(again.code).toBe(0);
    expect(readFileSync(join(repo.dir, POLICY), 'utf8')).toBe(policy);
    expect(again.stdout).toContain('already holds exactly this workflow');
    expect(again.stdout).toContain('already has integrations.app.builder: true');
  });

  it('refuses to replace a workflow without the trigger input unless --force, naming it', async () => {
    const old = builderWorkflow(ACTION).replace(/ {6}trigger: .*\n/, '');
    mkdirSync(dirname(workflowFile()), { recursive: true });
    writeFileSync(workflowFile(), old);
    const run = await init('--yes', '--without-hooks', '--builder', '--action', ACTION);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'exists and differs from the builder workflow aureus init --builder writes: its workflow_dispatch has no input trigger',
    );
    expect(run.stderr).toContain('rerun with --force');
    expect(readFileSync(workflowFile(), 'utf8')).toBe(old);
    const forced = await init(
      '--yes',
      '--without-hooks',
      '--builder',
      '--force',
      '--action',
      ACTION,
    );
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`Replaced ${BUILDER_WORKFLOW_PATH} (--force).`);
    expect(readFileSync(workflowFile(), 'utf8')).toBe(builderWorkflow(ACTION));
  });

  it('never writes through a committed link', async () => {
    const outside = await makeRepo('init-builder-outside');
    try {
      symlinkSync(outside.dir, join(repo.dir, '.github'));
      const run = await init('--yes', '--without-hooks', '--builder', '--action', ACTION);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        '.github is a symbolic link; AUREUS does not write through links.',
      );
      expect(existsSync(join(outside.dir, 'workflows'))).toBe(false);
    } finally {
      await outside.remove();
    }
    expect(lstatSync(join(repo.dir, '.github')).isSymbolicLink()).toBe(true);
  });

  it('neither reads nor writes a policy through a committed .aureus link or a linked policy', async () => {
    const outside = await makeRepo('init-builder-outside-policy');
    try {
      writeFileSync(join(outside.dir, 'policy.yaml'), 'version: 1\n');
      symlinkSync(outside.dir, join(repo.dir, '.aureus'));
      const run = await init('--yes', '--without-hooks', '--builder', '--action', ACTION);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        '.aureus is a symbolic link; AUREUS neither reads nor writes through links.',
      );
      expect(readFileSync(join(outside.dir, 'policy.yaml'), 'utf8')).toBe('version: 1\n');
      expect(existsSync(workflowFile())).toBe(false);

      // A real .aureus folder whose policy is the link.
      rmSync(join(repo.dir, '.aureus'));
      mkdirSync(join(repo.dir, '.aureus'));
      symlinkSync(join(outside.dir, 'policy.yaml'), join(repo.dir, POLICY));
      const linked = await init('--yes', '--without-hooks', '--builder', '--action', ACTION);
      expect(linked.code).toBe(2);
      expect(linked.stderr).toContain('is not a regular file (a link, folder or device)');
      expect(readFileSync(join(outside.dir, 'policy.yaml'), 'utf8')).toBe('version: 1\n');
      expect(existsSync(workflowFile())).toBe(false);
    } finally {
      await outside.remove();
    }
  });

  it('refuses a workflow file that is a link, even with --force', async () => {
    mkdirSync(dirname(workflowFile()), { recursive: true });
    const target = join(repo.dir, 'elsewhere.yml');
    writeFileSync(target, 'mine\n');
    symlinkSync(target, workflowFile());
    const run = await init('--yes', '--without-hooks', '--builder', '--force', '--action', ACTION);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not a regular file (a link, folder or device)');
    expect(readFileSync(target, 'utf8')).toBe('mine\n');
  });

  it('asks for an Action pinned by commit before writing anything', async () => {
    for (const args of [[], ['--action', 'octo-org/aureus@v1']]) {
      const run = await init('--yes', '--without-hooks', '--builder', ...args);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--action|pinned/);
      expect(existsSync(join(repo.dir, POLICY))).toBe(false);
      expect(existsSync(workflowFile())).toBe(false);
    }
  });

  it('refuses --action or --force without --builder, which alone would do nothing', async () => {
    for (const args of [['--action', ACTION], ['--force']]) {
      const run = await init('--yes', '--without-hooks', ...args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('applies to the builder workflow, and --builder was not given.');
      expect(existsSync(join(repo.dir, POLICY))).toBe(false);
    }
  });

  it('documents --builder in --help', async () => {
    const help = await init('--help');
    expect(help.stdout).toContain('--builder');
    expect(help.stdout).toContain('--action REF');
    expect(help.stdout).toContain('--force');
  });
});
