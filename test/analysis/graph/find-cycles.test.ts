import { describe, expect, it } from '@jest/globals';
import { findCycles } from '../../../src/analysis/graph/find-cycles.js';
import { buildModuleGraph } from '../../../src/analysis/graph/module-graph.js';
import { filesOf, importOf, resolveByName } from './graph-test-support.js';

const graphOf = (imports: Parameters<typeof filesOf>[0]) =>
  buildModuleGraph(filesOf(imports), resolveByName);

describe('findCycles', () => {
  it('returns each strongly connected component once, sorted, however many cycles it holds', () => {
    const graph = graphOf({
      'd.ts': ['b.ts'],
      'b.ts': ['c.ts', 'a.ts'],
      'c.ts': ['d.ts', 'a.ts'],
      'a.ts': ['b.ts'],
      'e.ts': ['a.ts', 'f.ts'],
      'f.ts': ['e.ts'],
      'g.ts': [],
    });
    expect(findCycles(graph, { includeTypeOnly: true })).toEqual([
      ['a.ts', 'b.ts', 'c.ts', 'd.ts'],
      ['e.ts', 'f.ts'],
    ]);
  });

  it('reports a file that imports itself, and no other single file', () => {
    const graph = graphOf({ 'self.ts': ['self.ts'], 'alone.ts': ['self.ts'] });
    expect(findCycles(graph, { includeTypeOnly: true })).toEqual([['self.ts']]);
  });

  it('finds nothing in a graph without cycles', () => {
    expect(
      findCycles(graphOf({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': [] }), {
        includeTypeOnly: true,
      }),
    ).toEqual([]);
  });

  it('never closes a cycle with a deferred import (inside a Python function); it stays an edge', () => {
    const graph = graphOf({
      'a.py': [importOf('b.py', { deferred: true })],
      'b.py': ['a.py'],
      'c.py': [importOf('d.py', { deferred: true }), 'd.py'],
      'd.py': ['c.py'],
    });
    expect(findCycles(graph, { includeTypeOnly: true })).toEqual([['c.py', 'd.py']]);
    expect(graph.outgoing.get('a.py')?.map((edge) => edge.to)).toEqual(['b.py']);
  });

  it('leaves type-only edges out on request; one runtime import keeps the edge', () => {
    const graph = graphOf({
      'a.ts': [importOf('b.ts', { typeOnly: true })],
      'b.ts': ['a.ts'],
      'c.ts': [importOf('d.ts', { typeOnly: true }), 'd.ts'],
      'd.ts': [importOf('c.ts', { typeOnly: true, reexport: true }), importOf('c.ts')],
    });
    expect(findCycles(graph, { includeTypeOnly: true })).toEqual([
      ['a.ts', 'b.ts'],
      ['c.ts', 'd.ts'],
    ]);
    expect(findCycles(graph, { includeTypeOnly: false })).toEqual([['c.ts', 'd.ts']]);
  });

  it('counts dynamic imports by default and leaves them out on request', () => {
    const graph = graphOf({ 'a.ts': [importOf('b.ts', { dynamic: true })], 'b.ts': ['a.ts'] });
    expect(findCycles(graph, { includeTypeOnly: false })).toEqual([['a.ts', 'b.ts']]);
    expect(findCycles(graph, { includeTypeOnly: false, includeDynamic: false })).toEqual([]);
  });

  it('combines the filters per import: a static type import and a dynamic value import', () => {
    const graph = graphOf({
      'a.ts': [importOf('b.ts', { typeOnly: true }), importOf('b.ts', { dynamic: true })],
      'b.ts': ['a.ts'],
    });
    const cycles = (includeTypeOnly: boolean, includeDynamic: boolean) =>
      findCycles(graph, { includeTypeOnly, includeDynamic });
    expect(cycles(true, false)).toEqual([['a.ts', 'b.ts']]);
    expect(cycles(false, true)).toEqual([['a.ts', 'b.ts']]);
    expect(cycles(false, false)).toEqual([]);
  });

  it('walks a chain of 200,000 files and a 100,000-file ring without recursion', () => {
    const size = 200_000;
    const name = (i: number) => `f${String(i).padStart(6, '0')}.ts`;
    const imports: Record<string, string[]> = {};
    for (let i = 0; i < size; i++) {
      // The first half is a chain; the second half a ring.
      const next = i === size - 1 ? name(size / 2) : name(i + 1);
      imports[name(i)] = i === size / 2 - 1 ? [] : [next];
    }
    const cycles = findCycles(graphOf(imports), { includeTypeOnly: true });
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toHaveLength(size / 2);
    expect(cycles[0]?.[0]).toBe(name(size / 2));
  });
});
