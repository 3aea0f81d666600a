import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type EffectCriticSettings,
  effectCritic,
  effectFindings,
} from '../../src/agent/effect-critic.js';
import { checkpointer, type RunPlace } from '../../src/agent/safety/checkpoints.js';
import type { FileEffect } from '../../src/agent/tool-contract.js';
import { policyFrom } from '../critic/critic-support.js';
import { makeRepo, type Repo, repoAt } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { useOwnCacheFolder } from '../support/own-cache-folder.js';

useIsolatedGit();

const POLICY = policyFrom(`
forbidden_patterns:
  god_class:
    max_loc: 6
`);

/** A class of `methods` one-line methods: `methods + 2` lines of code. */
const classOf = (name: string, methods: number) =>
  [
    `export class ${name} {`,
    ...Array.from({ length: methods }, (_, i) => `  m${i}() { return ${i}; }`),
    '}',
    '',
  ].join('\n');

let repo: Repo & { remove(): Promise<void> };
let run: RunPlace;
let tree: Repo;
let settings: EffectCriticSettings;

beforeAll(async () => {
  repo = await makeRepo('effect-critic');
  repo.write('src/a.ts', "import { b } from './b.js';\nexport const a = () => b + 1;\n");
  repo.write('src/b.ts', 'export const b = 1;\n');
  repo.write('src/c.ts', "import { a } from './a.js';\nexport const c = () => a();\n");
  repo.write('src/legacy.ts', classOf('Legacy', 8));
  repo.write('src/old-name.ts', "import { c } from './c.js';\nexport const named = c;\n");
  const startCommit = repo.commit('base');
  const dir = join(repo.dir, '.git', 'aureus', 'runs', 'r1');
  mkdirSync(dir, { recursive: true });
  repo.git('worktree', 'add', '--quiet', '-b', 'aureus/task-r1', join(dir, 'tree'), startCommit);
  run = { id: 'r1', tree: join(dir, 'tree'), dir };
  tree = repoAt(run.tree);
  settings = { root: repo.dir, tree: run.tree, startCommit, policy: POLICY };
});

afterAll(() => repo.remove());

/** The effects of writing `files` (null deletes), read against the run tree as it is. */
function effectsOf(files: Record<string, string | null>): FileEffect[] {
  return Object.entries(files).map(([path, after]) => {
    let before: string | null = null;
    try {
      before = tree.git('show', `:${path}`);
    } catch {
      before = null;
    }
    return { path, before, after };
  });
}

function apply(effects: readonly FileEffect[]): void {
  for (const { path, after } of effects) {
    if (after === null) rmSync(join(run.tree, path));
    else tree.write(path, after);
  }
}

describe('the safety gate critic over a run', () => {
  it('finds, action after action, exactly what a full analysis of the same tree finds', async () => {
    // One critic kept for the whole run, as the loop keeps it; each step is also judged by a
    // critic made for that step alone, which analyses everything from nothing.
    const kept = effectFindings(settings);
    const keptCritic = effectCritic(settings);
    const take = checkpointer(run);
    const steps: Array<{ name: string; files: Record<string, string | null>; refused: boolean }> = [
      {
        name: 'a new file',
        files: { 'src/d.ts': "import { b } from './b.js';\nexport const d = b;\n" },
        refused: false,
      },
      {
        name: 'a write that closes a cycle',
        files: {
          'src/b.ts': "import { c } from './c.js';\nexport const b = 1;\nexport const e = c;\n",
        },
        refused: true,
      },
      {
        name: 'a god class beside the baseline one',
        files: { 'src/legacy.ts': `${classOf('Legacy', 8)}${classOf('Bigger', 9)}` },
        refused: true,
      },
      { name: 'a deleted file', files: { 'src/c.ts': null }, refused: false },
      {
        name: 'a rename, its importer following',
        files: {
          'src/old-name.ts': null,
          'src/new-name.ts': "import { a } from './a.js';\nexport const named = a;\n",
          'src/d.ts': "import { named } from './new-name.js';\nexport const d = named;\n",
        },
        refused: false,
      },
      {
        name: 'a write after a command wrote a file of its own',
        files: { 'src/e.ts': "import { made } from './made.js';\nexport const e = made;\n" },
        refused: false,
      },
      {
        name: 'a write that closes a cycle through the renamed file',
        files: { 'src/a.ts': "import { d } from './d.js';\nexport const a = () => d;\n" },
        refused: true,
      },
      {
        name: 'a write importing a link a command made',
        files: { 'src/f.ts': "import { b } from './link.js';\nexport const f = b;\n" },
        refused: false,
      },
      {
        // A source file AUREUS cannot read is never a pass.
        name: 'a binary source file',
        files: { 'src/e.ts': 'export const e = 1;\0\0\0\n' },
        refused: true,
      },
      {
        name: 'a write that closes a cycle through the file a command wrote',
        files: {
          'src/e.ts':
            "import { made } from './made.js';\nimport { f } from './f.js';\nexport const e = [made, f];\n",
          'src/made.ts': "import { e } from './e.js';\nexport const made = e;\n",
        },
        refused: true,
      },
      {
        name: 'a content edit, no path moving',
        files: { 'src/b.ts': 'export const b = 2;\n' },
        refused: false,
      },
    ];
    for (const step of steps) {
      // A command run between actions (a generator, a formatter) changes files no effect names.
      if (step.name.includes('a command wrote'))
        tree.write('src/made.ts', 'export const made = 1;\n');
      if (step.name.includes('a command made')) symlinkSync('b.ts', join(run.tree, 'src/link.ts'));
      const effects = effectsOf(step.files);
      const before = await take(step.name);
      const full = await effectFindings(settings)(effects, before);
      expect({ step: step.name, findings: await kept(effects, before) }).toEqual({
        step: step.name,
        findings: full,
      });
      const refusal = await keptCritic(effects, before);
      expect({ step: step.name, refused: refusal !== null }).toEqual({
        step: step.name,
        refused: step.refused,
      });
      // A refused action is not applied, as in the loop.
      if (refusal === null) apply(effects);
    }
  });
});

describe('the safety gate critic when its cache folder goes', () => {
  const caches = useOwnCacheFolder('all');

  it('judges the next action in full when the cache folder is deleted mid-run', async () => {
    const kept = effectFindings(settings);
    const take = checkpointer(run);
    const first = effectsOf({ 'src/g.ts': "import { b } from './b.js';\nexport const g = b;\n" });
    const before = await take('before the first');
    await kept(first, before);
    apply(first);
    // The user (or a cleaner) removes AUREUS's cache folder while the run goes on.
    rmSync(caches.path(), { recursive: true, force: true });
    // The same paths, an import never asked before: the kept answers get one more, and are
    // saved again, into a folder that is no longer there. It closes a cycle, to be seen.
    const second = effectsOf({
      'src/b.ts': "import { g } from './g.js';\nexport const b = 1;\nexport const k = g;\n",
    });
    const next = await take('before the second');
    const findings = await kept(second, next);
    expect(findings.map((finding) => finding.ruleId)).toContain('circular_dependency');
    expect(findings).toEqual(await effectFindings(settings)(second, next));
    apply(second);
    // Gone again, and a command rewrites 60 files: their facts go to the cache as one pack.
    rmSync(caches.path(), { recursive: true, force: true });
    for (let n = 0; n < 60; n++) tree.write(`src/gen/g${n}.ts`, `export const g${n} = ${n};\n`);
    const third = effectsOf({ 'src/j.ts': 'export class J {}\n' });
    const after = await take('after the command');
    expect(await kept(third, after)).toEqual(await effectFindings(settings)(third, after));
  });
});
