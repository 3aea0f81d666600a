import { describe, expect, it } from '@jest/globals';
import { inferProject } from '../../src/init/infer-project.js';
import { file, packageJson, survey } from './survey-support.js';

const infer = (parts: Parameters<typeof survey>[0]) => inferProject(survey(parts));

describe('core', () => {
  it('is the folder holding most of the product code, tests and docs left out', () => {
    const { core } = infer({
      files: [
        file('src/model/a.ts', 400),
        file('src/cli/b.ts', 500),
        file('src/cli/b.test.ts', 900),
        file('index.js', 5),
        file('docs/example.ts', 3000),
        file('test/c.ts', 2000),
      ],
    });
    expect(core.value).toEqual({
      globs: ['src/**'],
      files: 2,
      loc: 900,
      modules: ['src/cli', 'src/model'],
    });
    expect(core.reason).toContain('src/ holds 99 %');
  });

  it('lists every top-level folder holding product code when none dominates', () => {
    const { core } = infer({
      files: [file('lib/a.js', 500), file('bin/cli.js', 400), file('index.js', 100)],
    });
    expect(core.value.globs).toEqual(['lib/**', 'bin/**', '*.js']);
    expect(core.value.modules).toEqual(['.', 'bin', 'lib']);
    expect(core.reason).toContain('lib/ (50 %), bin/ (40 %), the root (10 %)');
  });

  it('is the workspace packages in a monorepo, each package a module', () => {
    const { core } = infer({
      manifests: [
        packageJson('package.json', { workspaces: ['packages/*'] }),
        packageJson('packages/a/package.json', {}),
        packageJson('packages/b/package.json', {}),
      ],
      files: [file('packages/a/src/x.ts'), file('packages/b/y.ts'), file('scripts/z.ts')],
    });
    expect(core.value.globs).toEqual(['packages/*/**']);
    expect(core.value.modules).toEqual(['packages/a', 'packages/b']);
  });

  it('keeps the design default when there is no product code yet', () => {
    const { core } = infer({ files: [file('README.md')] });
    expect(core.value.globs).toEqual(['src/**']);
    expect(core.reason).toContain('design default');
  });
});

describe('layering', () => {
  const files = [file('src/model/a.ts'), file('src/logic/b.ts'), file('src/cli/c.ts')];

  it('stacks modules that import only those below them', () => {
    const { layering } = infer({
      files,
      imports: [
        { from: 'src/cli/c.ts', to: 'src/logic/b.ts' },
        { from: 'src/logic/b.ts', to: 'src/model/a.ts' },
        { from: 'src/cli/c.ts', to: 'src/model/a.ts' },
      ],
    });
    expect(layering.value).toEqual({
      layers: [['src/model'], ['src/logic'], ['src/cli']],
      tangled: [],
    });
    expect(layering.reason).toBe(
      '3 layers, each importing only those below: [model] ← [logic] ← [cli]',
    );
  });

  it('calls modules on a cycle, and those above it, tangled', () => {
    const { layering } = infer({
      files,
      imports: [
        { from: 'src/model/a.ts', to: 'src/logic/b.ts' },
        { from: 'src/logic/b.ts', to: 'src/model/a.ts' },
        { from: 'src/cli/c.ts', to: 'src/logic/b.ts' },
      ],
    });
    expect(layering.value).toEqual({ layers: [], tangled: ['src/cli', 'src/logic', 'src/model'] });
    expect(layering.reason).toContain('import each other in a cycle');
  });

  it('sees no layering in one module or in modules that never import each other', () => {
    expect(infer({ files: [file('src/a.ts')] }).layering.reason).toBe(
      '1 module: no layering to see',
    );
    expect(infer({ files }).layering.reason).toBe('3 modules, none importing another');
  });
});

describe('maturity and team', () => {
  const small = [file('src/a.ts', 1000)];

  it('is greenfield when young, short and within the design budgets', () => {
    const { maturity, team } = infer({ files: small });
    expect(maturity.value).toBe('greenfield');
    expect(maturity.reason).toContain('first commit 2025-05-01 (31 days ago), 12 commits');
    expect(team).toEqual({ value: 1, reason: '1 person committed in the last 90 days' });
  });

  it('is legacy when a year old, 500 commits long, or past the design’s hard LOC limit', () => {
    const history = {
      commits: 12,
      firstCommitAt: '2023-01-01T00:00:00Z',
      recentAuthors: 4,
      shallow: false,
    };
    const old = infer({ files: small, history });
    expect(old.maturity.value).toBe('legacy');
    expect(old.maturity.reason).toContain('older than 12 months');
    const long = infer({
      files: small,
      history: { ...history, firstCommitAt: '2025-05-01T00:00:00Z', commits: 800 },
    });
    expect(long.maturity).toEqual({
      value: 'legacy',
      reason: expect.stringContaining('500 commits or more'),
    });
    const big = infer({ files: [file('src/a.ts', 9000)] });
    expect(big.maturity.reason).toContain("core above the design's hard limit of 8,000 lines");
    expect(old.team.reason).toBe('4 people committed in the last 90 days');
  });

  it('is growing when young but past a design budget', () => {
    const many = Array.from({ length: 30 }, (_, i) => file(`src/m/f${i}.ts`, 10));
    const { maturity } = infer({ files: many });
    expect(maturity).toEqual({
      value: 'growing',
      reason: expect.stringContaining("past the design's 25 files"),
    });
  });

  it('says when there is no history, or only a shallow one', () => {
    const empty = infer({
      history: { commits: 0, firstCommitAt: null, recentAuthors: 0, shallow: false },
    });
    expect(empty.maturity.reason).toContain('no commits yet');
    expect(empty.team.reason).toBe('no commits in the last 90 days');
    const shallow = infer({
      history: {
        commits: 1,
        firstCommitAt: '2025-05-30T00:00:00Z',
        recentAuthors: 1,
        shallow: true,
      },
    });
    expect(shallow.maturity.reason).toContain('a shallow clone');
  });
});
