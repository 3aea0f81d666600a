import { describe, expect, it } from '@jest/globals';
import { buildModuleGraph } from '../../../src/analysis/graph/module-graph.js';
import { filesOf, importOf, resolveByName } from './graph-test-support.js';

describe('buildModuleGraph', () => {
  it('keeps only imports that resolve to one of the given files, sorted', () => {
    const graph = buildModuleGraph(
      filesOf({
        'src/b.ts': ['src/a.ts', 'pkg:react', 'missing', 'dist/out.js'],
        'src/a.ts': ['src/c.ts', 'src/b.ts'],
        'src/c.ts': [],
      }),
      resolveByName,
    );
    expect(graph.nodes).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts']);
    expect(graph.edges.map((edge) => `${edge.from}->${edge.to}`)).toEqual([
      'src/a.ts->src/b.ts',
      'src/a.ts->src/c.ts',
      'src/b.ts->src/a.ts',
    ]);
    expect(graph.outgoing.get('src/c.ts')).toEqual([]);
  });

  it('folds several imports of one target into one edge: runtime and static win', () => {
    const graph = buildModuleGraph(
      filesOf({
        'a.ts': [
          importOf('b.ts', { typeOnly: true, line: 3 }),
          importOf('b.ts', { dynamic: true, line: 9 }),
          importOf('c.ts', { typeOnly: true, reexport: true }),
          importOf('c.ts', { typeOnly: true, line: 2 }),
        ],
        'b.ts': [],
        'c.ts': [],
      }),
      resolveByName,
    );
    const [toB, toC] = graph.edges;
    expect(toB).toMatchObject({ to: 'b.ts', typeOnly: false, dynamic: false, reexport: false });
    expect(toB?.imports.map((fact) => fact.line)).toEqual([3, 9]);
    expect(toC).toMatchObject({ to: 'c.ts', typeOnly: true, dynamic: false, reexport: true });
  });

  it("makes an import of a package an edge to each of the package's files that is analysed", () => {
    const graph = buildModuleGraph(
      filesOf({ 'a/a.go': ['b'], 'b/b1.go': [], 'b/b2.go': ['a'] }),
      (_from, specifier) =>
        specifier === 'b'
          ? { kind: 'package', paths: ['b/b1.go', 'b/b2.go', 'b/ignored.go'] }
          : { kind: 'package', paths: ['a/a.go'] },
    );
    expect(graph.edges.map((edge) => `${edge.from}->${edge.to}`)).toEqual([
      'a/a.go->b/b1.go',
      'a/a.go->b/b2.go',
      'b/b2.go->a/a.go',
    ]);
  });

  it('does not depend on the order of the input', () => {
    const forward = filesOf({ 'x.ts': ['y.ts', 'z.ts'], 'y.ts': ['x.ts'], 'z.ts': [] });
    const backward = new Map([...forward.entries()].reverse());
    expect(buildModuleGraph(backward, resolveByName)).toEqual(
      buildModuleGraph(forward, resolveByName),
    );
  });
});
