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

  it('does not depend on the order of the input', () => {
    const forward = filesOf({ 'x.ts': ['y.ts', 'z.ts'], 'y.ts': ['x.ts'], 'z.ts': [] });
    const backward = new Map([...forward.entries()].reverse());
    expect(buildModuleGraph(backward, resolveByName)).toEqual(
      buildModuleGraph(forward, resolveByName),
    );
  });
});
