import { type Document, isMap, isNode, isScalar, isSeq, type LineCounter, type Node } from 'yaml';

export interface YamlPosition {
  readonly line: number;
  readonly column: number;
}

/** Resolves positions of values and keys in a parsed policy, for messages that point at them. */
export interface YamlLocator {
  /** Where the value at `path` starts, or its nearest present ancestor when it is absent. */
  valueAt(path: readonly string[]): YamlPosition;
  /** Where the key `key` of the mapping at `path` is written, if it is. */
  keyAt(path: readonly string[], key: string): YamlPosition | undefined;
  /** Whether the document writes a value at `path` (false when it comes from a default). */
  has(path: readonly string[]): boolean;
}

export function yamlLocator(document: Document, lineCounter: LineCounter): YamlLocator {
  const position = (offset: number): YamlPosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const start = (node: Node | null): YamlPosition => position(node?.range?.[0] ?? 0);
  return {
    valueAt: (path) => start(walk(document.contents, path).node),
    keyAt: (path, key) => {
      const { node, complete } = walk(document.contents, path);
      if (!complete || !isMap(node)) return undefined;
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
      return pair && isScalar(pair.key) ? start(pair.key) : undefined;
    },
    has: (path) => walk(document.contents, path).complete,
  };
}

/** Follows `path` as far as the document goes; `complete` says whether it got to the end. */
function walk(
  root: Node | null,
  path: readonly string[],
): { node: Node | null; complete: boolean } {
  let node = root;
  for (const segment of path) {
    const next = child(node, segment);
    if (next === undefined) return { node, complete: false };
    node = next;
  }
  return { node, complete: true };
}

function child(node: Node | null, segment: string): Node | null | undefined {
  if (isMap(node)) {
    const pair = node.items.find(
      (item) => isScalar(item.key) && String(item.key.value) === segment,
    );
    if (pair === undefined) return undefined;
    // A key written with no value (`budgets:`) has an empty value node: point at its key.
    if (isNode(pair.value) && !isEmptyScalar(pair.value)) return pair.value;
    return isNode(pair.key) ? pair.key : null;
  }
  if (isSeq(node) && /^\d+$/.test(segment)) {
    const item = node.items[Number(segment)];
    return isNode(item) ? item : undefined;
  }
  return undefined;
}

function isEmptyScalar(node: Node): boolean {
  return isScalar(node) && node.value === null && node.range?.[0] === node.range?.[1];
}
