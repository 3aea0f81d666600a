import { describe, expect, it } from '@jest/globals';
import { buildModuleGraph } from '../../../src/analysis/graph/module-graph.js';
import { groupModules, moduleEdges } from '../../../src/analysis/graph/policy-modules.js';
import { filesOf, importOf, resolveByName } from './graph-test-support.js';

describe('groupModules', () => {
  it('makes the folders under a one-folder root modules, and its own files one more', () => {
    const grouped = groupModules(
      ['src/a/x.ts', 'src/a/deep/y.ts', 'src/b/z.ts', 'src/main.ts', 'test/t.ts', 'README.md'],
      ['src/**'],
    );
    expect(Object.fromEntries(grouped.moduleOf)).toEqual({
      'src/a/deep/y.ts': 'src/a',
      'src/a/x.ts': 'src/a',
      'src/b/z.ts': 'src/b',
      'src/main.ts': 'src',
    });
    expect(grouped.modules).toEqual(['src', 'src/a', 'src/b']);
  });

  it('makes a deeper glob one module, as a policy that lists its modules does', () => {
    const grouped = groupModules(
      ['src/model/a.ts', 'src/model/sub/b.ts', 'src/analysis/graph/c.ts', 'src/cli/main.ts'],
      ['src/model/**', 'src/analysis/**'],
    );
    expect(Object.fromEntries(grouped.moduleOf)).toEqual({
      'src/analysis/graph/c.ts': 'src/analysis',
      'src/model/a.ts': 'src/model',
      'src/model/sub/b.ts': 'src/model',
    });
  });

  it('reads workspace globs, file-name filters and the repository root', () => {
    const paths = [
      'packages/ui/src/a.ts',
      'packages/ui/src/a.css',
      'packages/api/src/b.ts',
      'c.ts',
    ];
    expect(groupModules(paths, ['packages/*/src/**/*.ts']).modules).toEqual([
      'packages/api',
      'packages/ui',
    ]);
    expect(Object.fromEntries(groupModules(paths, ['**/*.ts']).moduleOf)).toEqual({
      'c.ts': '.',
      'packages/api/src/b.ts': 'packages',
      'packages/ui/src/a.ts': 'packages',
    });
  });

  it('gives a file to the first glob that takes it and includes dot-folders', () => {
    const grouped = groupModules(['src/core/a.ts', 'src/.gen/b.ts'], ['src/core/**', 'src/**']);
    expect(Object.fromEntries(grouped.moduleOf)).toEqual({
      'src/.gen/b.ts': 'src/.gen',
      'src/core/a.ts': 'src/core',
    });
  });
});

describe('moduleEdges', () => {
  it('counts file edges between modules and leaves out edges inside one', () => {
    const graph = buildModuleGraph(
      filesOf({
        'src/a/one.ts': [
          'src/a/two.ts',
          'src/b/three.ts',
          importOf('src/c/four.ts', { typeOnly: true }),
        ],
        'src/a/two.ts': ['src/b/three.ts', 'lib/outside.ts'],
        'src/b/three.ts': [importOf('src/a/one.ts', { typeOnly: true })],
        'src/c/four.ts': [],
        'lib/outside.ts': ['src/a/one.ts'],
      }),
      resolveByName,
    );
    const modules = groupModules(graph.nodes, ['src/**']);
    expect(moduleEdges(graph, modules)).toEqual([
      { from: 'src/a', to: 'src/b', count: 2, typeOnly: false },
      { from: 'src/a', to: 'src/c', count: 1, typeOnly: true },
      { from: 'src/b', to: 'src/a', count: 1, typeOnly: true },
    ]);
  });
});
