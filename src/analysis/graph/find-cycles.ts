import { compareStrings, type GraphImport, type ModuleGraph } from './module-graph.js';

export interface CycleOptions {
  /**
   * Count imports TypeScript's emit erases (`import type`, bindings used only as types). They
   * decide the answer on real code (typeorm's 227-file cycle is type-only), so every caller
   * says which question it asks.
   */
  readonly includeTypeOnly: boolean;
  /** Count `import()`/`require()`; default true, as madge and dependency-cruiser do. */
  readonly includeDynamic?: boolean;
}

/**
 * The cycles of the graph as strongly connected components: every group of two or more files
 * that reach each other, and every file that imports itself. A deferred import (ImportFact:
 * inside a Python function) closes none: nothing runs it while the files load, and it is how
 * Python code breaks a cycle on purpose. Each component is sorted and the
 * list is sorted, so the answer does not depend on the order files were read in.
 *
 * Components, not cycle paths: a component of n files may hold exponentially many elementary
 * cycles, and madge and dependency-cruiser each print a different selection of them.
 */
export function findCycles(graph: ModuleGraph, options: CycleOptions): string[][] {
  const includeDynamic = options.includeDynamic ?? true;
  const counts = (fact: GraphImport): boolean =>
    (options.includeTypeOnly || fact.emitted) &&
    (includeDynamic || !fact.dynamic) &&
    fact.deferred !== true;
  const indexOf = new Map(graph.nodes.map((node, index) => [node, index]));
  const successors = graph.nodes.map((node) => {
    const targets: number[] = [];
    for (const edge of graph.outgoing.get(node) ?? []) {
      const target = indexOf.get(edge.to);
      if (target !== undefined && edge.imports.some(counts)) targets.push(target);
    }
    return targets;
  });
  const isCycle = (component: readonly number[]): boolean => {
    const [first] = component;
    if (first === undefined) return false;
    return component.length > 1 || (successors[first]?.includes(first) ?? false);
  };
  return stronglyConnectedComponents(successors)
    .filter(isCycle)
    .map((component) => component.map((index) => graph.nodes[index] ?? '').sort(compareStrings))
    .sort(compareArrays);
}

/**
 * Tarjan's algorithm with an explicit stack instead of recursion: real import chains are deep
 * enough (thousands of files) to overflow the call stack of a recursive version.
 */
function stronglyConnectedComponents(successors: readonly (readonly number[])[]): number[][] {
  const count = successors.length;
  const discovery = new Int32Array(count).fill(-1);
  const lowLink = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const stack: number[] = [];
  const components: number[][] = [];
  // The simulated call stack: a node and the position of the next successor to look at.
  const callNodes: number[] = [];
  const callNext: number[] = [];
  let nextDiscovery = 0;

  const enter = (node: number): void => {
    discovery[node] = nextDiscovery;
    lowLink[node] = nextDiscovery;
    nextDiscovery += 1;
    stack.push(node);
    onStack[node] = 1;
    callNodes.push(node);
    callNext.push(0);
  };

  for (let root = 0; root < count; root++) {
    if (discovery[root] !== -1) continue;
    enter(root);
    while (callNodes.length > 0) {
      const top = callNodes.length - 1;
      const node = callNodes[top] ?? 0;
      const position = callNext[top] ?? 0;
      const next = successors[node] ?? [];
      if (position < next.length) {
        callNext[top] = position + 1;
        const successor = next[position] ?? 0;
        if (discovery[successor] === -1) enter(successor);
        else if (onStack[successor] === 1) {
          lowLink[node] = Math.min(lowLink[node] ?? 0, discovery[successor] ?? 0);
        }
        continue;
      }
      callNodes.pop();
      callNext.pop();
      const parent = callNodes.at(-1);
      if (parent !== undefined) {
        lowLink[parent] = Math.min(lowLink[parent] ?? 0, lowLink[node] ?? 0);
      }
      if (lowLink[node] === discovery[node]) components.push(popComponent(stack, onStack, node));
    }
  }
  return components;
}

function popComponent(stack: number[], onStack: Uint8Array, root: number): number[] {
  const component: number[] = [];
  for (;;) {
    const member = stack.pop();
    if (member === undefined) break;
    onStack[member] = 0;
    component.push(member);
    if (member === root) break;
  }
  return component;
}

function compareArrays(a: readonly string[], b: readonly string[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const order = compareStrings(a[i] ?? '', b[i] ?? '');
    if (order !== 0) return order;
  }
  return a.length - b.length;
}
