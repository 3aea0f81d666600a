import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Project } from 'ts-morph';
import type { FileFacts } from '../../src/model/facts.js';
import type { Policy } from '../../src/model/policy.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { SIMPLIFICATION_PASSES } from '../../src/reflexion/pass-catalog.js';
import { createFactParser } from '../../src/scan/fact-parsers.js';
import { simplificationMetrics } from '../../src/simplify/simplification-metrics.js';
import { simplifyRepository } from '../../src/simplify/simplify-repository.js';
import {
  OVER_ENGINEERED,
  overEngineeredRepos,
  RUN_OVER_ENGINEERED_TESTS,
} from '../reflexion/support/over-engineered-repo.js';
import { isolateGit, type Repo } from '../support/git-fixture.js';

const FIXTURE = OVER_ENGINEERED;
const RUN_TESTS = RUN_OVER_ENGINEERED_TESTS;

let restoreGit: () => Promise<void>;
const repos = overEngineeredRepos('simplify');
const fixtureRepo = () => repos.make();

beforeAll(async () => {
  restoreGit = await isolateGit();
});

afterAll(async () => {
  await repos.removeAll();
  await restoreGit();
});

/** The default policy, with the fixture's test command. */
function policyWithTests(): Policy {
  const policy = defaultPolicy();
  return {
    ...policy,
    project: {
      ...policy.project,
      stack: {
        ...policy.project.stack,
        test_command: [process.execPath, RUN_TESTS],
      },
    },
  };
}

/** Type errors of the repository's project, as the fixture's tsconfig.json checks it. */
function typeErrors(dir: string): string[] {
  const project = new Project({ tsConfigFilePath: join(dir, 'tsconfig.json') });
  return project.getPreEmitDiagnostics().map((diagnostic) => String(diagnostic.getMessageText()));
}

const read = (repo: Pick<Repo, 'dir'>, path: string) => readFileSync(join(repo.dir, path), 'utf8');

/** The facts of every file under src/ of `dir`, by path. */
async function factsOfSources(dir: string): Promise<Map<string, FileFacts>> {
  const parse = await createFactParser('auto', 5);
  const facts = new Map<string, FileFacts>();
  for (const name of readdirSync(join(dir, 'src')))
    facts.set(`src/${name}`, await parse('typescript', read({ dir }, `src/${name}`)));
  return facts;
}

describe('aureus simplify on an over-engineered project', () => {
  it('offers only verified patches, each priced below zero', async () => {
    const repo = await fixtureRepo();
    const result = await simplifyRepository(repo.dir, defaultPolicy(), SIMPLIFICATION_PASSES, {
      changedOnly: false,
      apply: false,
      test: false,
    });
    expect(result.failedPasses).toEqual([]);
    expect(result.verified.length).toBeGreaterThanOrEqual(4);
    for (const patch of result.verified) expect(patch.price.cost.total).toBeLessThan(0);
    expect(result.verified.map((patch) => patch.proposal.pass).sort()).toEqual(
      expect.arrayContaining([
        'pass-through-wrapper',
        'single-implementation',
        'static-only-class',
        'unused-code',
      ]),
    );
    expect(result.applied.written).toBe(false);
    // Nothing written without --apply.
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('--apply --test until nothing is left: still type-checks, tests pass, ≥ 20 % simpler', async () => {
    const repo = await fixtureRepo();
    const policy = policyWithTests();
    const first = await simplifyRepository(repo.dir, policy, SIMPLIFICATION_PASSES, {
      changedOnly: false,
      apply: true,
      test: true,
    });
    expect(first.applied.kept.length).toBeGreaterThan(0);
    let runs = 1;
    let last = first;
    // Patches that overlap wait for the next run: go on until a run writes nothing.
    while (last.applied.kept.length > 0 && runs < 6) {
      last = await simplifyRepository(repo.dir, policy, SIMPLIFICATION_PASSES, {
        changedOnly: false,
        apply: true,
        test: true,
      });
      runs += 1;
    }
    expect(last.applied.kept).toEqual([]);
    expect(typeErrors(repo.dir)).toEqual([]);
    expect(spawnSync(process.execPath, [RUN_TESTS], { cwd: repo.dir }).status).toBe(0);
    // Lines and branching of src/ before and after every run, as the ledger measures a run.
    const overall = simplificationMetrics(
      await factsOfSources(FIXTURE),
      await factsOfSources(repo.dir),
      0.2,
    );
    expect(overall.abstractionsRemoved).toBe(1);
    expect(overall.reduction).toBeGreaterThanOrEqual(0.2);
    expect(overall.targetMet).toBe(true);
    expect(repo.git('diff', '--stat')).toMatchSnapshot();
    expect(() => read(repo, 'src/shape.ts')).toThrow();
    expect(read(repo, 'src/math-util.ts')).not.toContain('class');
    expect(read(repo, 'src/main.ts')).not.toContain('computeTotal');
  });

  it('takes a patch back out when the tests fail with it, and leaves the tree as it was', async () => {
    const repo = await fixtureRepo();
    const policy = defaultPolicy();
    const failing: Policy = {
      ...policy,
      project: {
        ...policy.project,
        stack: {
          ...policy.project.stack,
          test_command: [process.execPath, '-e', 'process.exit(3)'],
        },
      },
    };
    const result = await simplifyRepository(repo.dir, failing, SIMPLIFICATION_PASSES, {
      changedOnly: false,
      apply: true,
      test: true,
    });
    expect(result.applied.kept).toEqual([]);
    const reasons = result.applied.notKept.map((dropped) => dropped.reason);
    expect(reasons.some((reason) => reason.includes('failed with it (exit 3)'))).toBe(true);
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('refuses --test when the policy knows no test command', async () => {
    const repo = await fixtureRepo();
    await expect(
      simplifyRepository(repo.dir, defaultPolicy(), SIMPLIFICATION_PASSES, {
        changedOnly: false,
        apply: true,
        test: true,
      }),
    ).rejects.toThrow('no test command is known');
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('reads tracked JavaScript beside a TypeScript project without tripping the type checker', async () => {
    const repo = await fixtureRepo();
    // An object literal in a .mjs file outside tsconfig's include: TypeScript's checker fails on
    // it in a program that does not allow JavaScript.
    repo.write(
      'scripts/build.mjs',
      "import { transpile } from './tools.mjs';\nexport const out = transpile('x', { compilerOptions: { module: 1 } });\n",
    );
    repo.write(
      'scripts/tools.mjs',
      'export function transpile(text, options) {\n  return [text, options];\n}\n',
    );
    repo.commit('scripts');
    const result = await simplifyRepository(repo.dir, defaultPolicy(), SIMPLIFICATION_PASSES, {
      changedOnly: false,
      apply: false,
      test: false,
    });
    expect(result.failedPasses).toEqual([]);
    expect(result.verified.length).toBeGreaterThan(0);
  });
});
