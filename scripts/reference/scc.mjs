// Strongly connected components, written independently of AUREUS's own (Kosaraju's algorithm
// here, Tarjan's there), so that the reference numbers do not share its bugs.

/**
 * `edges`: Map<from, Iterable<to>>. Returns the components of two or more nodes and the nodes
 * with an edge to themselves, each sorted, the list sorted: the normal form every tool's answer
 * is compared in.
 */
export function cycleComponents(edges) {
  const nodes = new Set();
  const forward = new Map();
  const backward = new Map();
  const link = (map, from, to) => {
    if (!map.has(from)) map.set(from, []);
    map.get(from).push(to);
  };
  for (const [from, targets] of edges) {
    nodes.add(from);
    for (const to of targets) {
      nodes.add(to);
      link(forward, from, to);
      link(backward, to, from);
    }
  }
  const sorted = [...nodes].sort(compare);
  // Pass 1: finishing order of a depth-first search, with an explicit stack.
  const finished = [];
  const visited = new Set();
  for (const start of sorted) {
    if (visited.has(start)) continue;
    visited.add(start);
    const stack = [[start, 0]];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const next = forward.get(top[0]) ?? [];
      if (top[1] < next.length) {
        const target = next[top[1]++];
        if (!visited.has(target)) {
          visited.add(target);
          stack.push([target, 0]);
        }
      } else {
        finished.push(top[0]);
        stack.pop();
      }
    }
  }
  // Pass 2: on the reversed graph, in reverse finishing order, each tree is a component.
  const assigned = new Set();
  const components = [];
  for (let i = finished.length - 1; i >= 0; i--) {
    const start = finished[i];
    if (assigned.has(start)) continue;
    assigned.add(start);
    const component = [];
    const stack = [start];
    while (stack.length > 0) {
      const node = stack.pop();
      component.push(node);
      for (const source of backward.get(node) ?? []) {
        if (!assigned.has(source)) {
          assigned.add(source);
          stack.push(source);
        }
      }
    }
    const selfLoop = component.length === 1 && (forward.get(start) ?? []).includes(start);
    if (component.length > 1 || selfLoop) components.push(component.sort(compare));
  }
  return components.sort((a, b) => compare(a.join('\n'), b.join('\n')));
}

function compare(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A short description: how many components, and how many files they hold. */
export function describeComponents(components) {
  const files = components.reduce((total, component) => total + component.length, 0);
  const largest = components.reduce((most, component) => Math.max(most, component.length), 0);
  return { components: components.length, files, largest };
}
