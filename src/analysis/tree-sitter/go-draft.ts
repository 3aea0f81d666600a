import type { FactsCollector, FunctionDraft } from './facts-collector.js';
import type { TextRange } from './line-index.js';

/**
 * The Go extractor's working state: the shared FactsCollector plus what Go needs until the walk
 * ends. A struct's methods may be declared anywhere in the file, so they are counted by
 * receiver type name and matched to the structs at the end.
 */
export interface GoDraft {
  readonly facts: FactsCollector;
  readonly structs: { readonly name: string; readonly range: TextRange }[];
  readonly methodsByReceiver: Map<string, number>;
  /** Local package name → import path (`r "reflect"` → r → reflect), for reflection calls. */
  readonly importedPackages: Map<string, string>;
}

export interface Scope {
  /** The innermost function or function literal: it owns decision points and calls. */
  readonly fn: FunctionDraft | undefined;
  /** Outside every function: declarations here are the package's. */
  readonly packageLevel: boolean;
}

export function rangeOf(node: {
  readonly startIndex: number;
  readonly endIndex: number;
}): TextRange {
  return { start: node.startIndex, end: node.endIndex };
}

/** The content of a Go string literal (interpreted or raw) as written; null for anything else. */
export function goStringValue(
  node: { readonly type: string; readonly text: string } | null | undefined,
): string | null {
  if (node?.type !== 'interpreted_string_literal' && node?.type !== 'raw_string_literal')
    return null;
  return node.text.slice(1, -1);
}

/** Exported: the name begins with an upper-case letter (the Go spec's rule, Unicode included). */
export function isExportedName(name: string): boolean {
  return /^\p{Lu}/u.test(name);
}
