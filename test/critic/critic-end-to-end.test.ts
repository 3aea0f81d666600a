import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { fingerprintOf } from '../../src/critic/finding-of.js';
import { runCritic } from '../../src/critic/run-critic.js';
import { analyzeRepository } from '../../src/scan/analyze-repository.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { classOfLoc, policyFrom } from './critic-support.js';

const POLICY = `
budgets:
  core_files: 5
  core_modules: 2
  new_dependencies: 1
  core_loc:
    target: 20
    hard: 200
paths:
  core: [src/**]
forbidden_patterns:
  god_class:
    max_loc: 8
  reflection:
    severity: off
  single_backend_repository:
    severity: error
`;

describe('the critic over a real repository', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('critic');
    repo.write(
      'src/store/user-repository.ts',
      'export interface UserRepository {\n  find(id: string): string;\n}\n',
    );
    repo.write(
      'src/store/pg-user-repository.ts',
      "import type { UserRepository } from './user-repository.js';\n\nexport class PgUserRepository implements UserRepository {\n  find(id: string): string {\n    return id;\n  }\n}\n",
    );
    repo.write(
      'src/app/service.ts',
      `import { helper } from './helpers.js';\n\n${classOfLoc('Service', 9)}export const run = () => helper();\n`,
    );
    repo.write(
      'src/app/helpers.ts',
      "import { Service } from './service.js';\nexport let calls = 0;\nexport const helper = () => new Service().m0() + calls;\n",
    );
    repo.write('src/app/evaluate.ts', 'export const evaluate = (code: string) => eval(code);\n');
    repo.write('src/extra/tool.ts', 'export const tool = 1;\n');
    // A test is neither a core file nor a god class, however long.
    repo.write('test/service.test.ts', classOfLoc('ServiceSuite', 40));
    repo.write('README.md', '# fixture\n');
    repo.commit('fixture');
  });
  afterEach(() => repo.remove());

  it('finds exactly the forbidden patterns the policy asks for', async () => {
    const policy = policyFrom(POLICY);
    const project = await analyzeRepository(repo.dir, policy);
    const findings = runCritic({
      policy,
      project,
      change: { addedDependencies: ['zod', 'axios'] },
    });
    for (const { ruleId, location, symbol, fingerprint } of findings) {
      expect(fingerprint).toBe(fingerprintOf(ruleId, location?.path ?? '', symbol));
    }
    expect(findings.map(({ fingerprint, ...rest }) => rest)).toEqual([
      {
        ruleId: 'dependency_budget',
        severity: 'error',
        message:
          'the change adds 2 direct dependencies (axios and zod); the budget is 1 (budgets.new_dependencies)',
        location: null,
        symbol: 'repository',
        measured: 2,
        limit: 1,
        related: [],
      },
      {
        ruleId: 'file_budget',
        severity: 'error',
        message: 'the core holds 6 files; the budget is 5 (budgets.core_files)',
        location: null,
        symbol: 'repository',
        measured: 6,
        limit: 5,
        related: [],
      },
      {
        ruleId: 'loc_budget',
        severity: 'warn',
        message: 'the core holds 25 lines of code; its target is 20 (budgets.core_loc.target)',
        location: null,
        symbol: 'repository',
        measured: 25,
        limit: 20,
        related: [],
      },
      {
        ruleId: 'module_budget',
        severity: 'error',
        message:
          'the core holds 3 modules (src/app, src/extra and src/store); the budget is 2 (budgets.core_modules)',
        location: null,
        symbol: 'repository',
        measured: 3,
        limit: 2,
        related: [],
      },
      {
        ruleId: 'circular_dependency',
        severity: 'error',
        message:
          'src/app/helpers.ts and src/app/service.ts import one another in a cycle of 2 files',
        location: { path: 'src/app/helpers.ts', startLine: 1, endLine: 1 },
        symbol: 'src/app/helpers.ts\nsrc/app/service.ts',
        measured: 2,
        limit: null,
        related: [{ path: 'src/app/service.ts', startLine: 1, endLine: 1 }],
      },
      {
        ruleId: 'global_mutable_state',
        severity: 'warn',
        message:
          'module-level variable calls is mutable state shared by everything that imports src/app/helpers.ts',
        location: { path: 'src/app/helpers.ts', startLine: 2, endLine: 2 },
        symbol: 'calls',
        measured: null,
        limit: null,
        related: [],
      },
      {
        ruleId: 'god_class',
        severity: 'error',
        message:
          'class Service spans 9 lines of code; the limit is 8 (forbidden_patterns.god_class.max_loc)',
        location: { path: 'src/app/service.ts', startLine: 3, endLine: 11 },
        symbol: 'Service',
        measured: 9,
        limit: 8,
        related: [],
      },
      {
        ruleId: 'premature_abstraction',
        severity: 'error',
        message:
          'interface UserRepository has 1 concrete implementation (PgUserRepository); the minimum is 2 (forbidden_patterns.premature_abstraction.min_implementations)',
        location: { path: 'src/store/user-repository.ts', startLine: 1, endLine: 3 },
        symbol: 'UserRepository',
        measured: 1,
        limit: 2,
        related: [],
      },
      {
        ruleId: 'single_backend_repository',
        severity: 'error',
        message:
          'interface UserRepository has 1 concrete implementation (PgUserRepository): a repository pattern over a single backend, where 2 backends would justify it',
        location: { path: 'src/store/user-repository.ts', startLine: 1, endLine: 3 },
        symbol: 'UserRepository',
        measured: 1,
        limit: 2,
        related: [],
      },
    ]);
  });

  it('recognises base findings at the head after code moved: only the new class is new', async () => {
    const policy = policyFrom(POLICY);
    const base = repo.git('rev-parse', 'HEAD');
    repo.write(
      'src/app/service.ts',
      `import { helper } from './helpers.js';\n${'\n'.repeat(10)}${classOfLoc('Service', 9)}export const run = () => helper();\n`,
    );
    repo.write('src/app/report.ts', classOfLoc('Report', 12));
    repo.commit('move Service down, add Report');
    const fingerprints = async (ref: string) =>
      new Set(
        runCritic({ policy, project: await analyzeRepository(repo.dir, policy, { ref }) }).map(
          (finding) => finding.fingerprint,
        ),
      );
    const before = await fingerprints(base);
    const after = await fingerprints('HEAD');
    expect([...before].every((fingerprint) => after.has(fingerprint))).toBe(true);
    expect([...after].filter((fingerprint) => !before.has(fingerprint))).toEqual([
      fingerprintOf('god_class', 'src/app/report.ts', 'Report'),
    ]);
  });
});
