import type { Tree } from 'web-tree-sitter';
import type { FileFacts } from '../../model/facts.js';
import { FactsCollector } from './facts-collector.js';
import type { GoDraft } from './go-draft.js';
import { walkGo } from './go-walk.js';
import { syntaxDiagnostics } from './tree-diagnostics.js';

/**
 * The facts of one Go file, from its web-tree-sitter tree and its text. Pure: no I/O.
 *
 * How each fact maps onto Go (details in the module each rule lives in):
 * - lines: `//` and `/* *\/` comments; a multi-line raw string is code.
 * - classes: named struct types, spanning their type spec; `methods` counts the methods
 *   declared in this file on `T` or `*T`; Go has no inheritance, abstract or static members, so
 *   `extends` is null, `implements` empty, `abstract` and `staticOnly` false.
 * - abstractions: interface types that are not mere type constraints (go-declarations.ts).
 * - functions, complexity, calls: go-declarations.ts, go-walk.ts, go-calls.ts.
 * - exports: capitalised package-level names (funcs, types, vars, consts); methods are not.
 * - mutable state: package-level `var`s (go-declarations.ts for the exceptions).
 * - a tree with syntax errors still yields the facts of what parsed, plus a diagnostic per
 *   syntax error at its line and column (tree-diagnostics.ts); the extractor never throws.
 */
export function extractGoFacts(tree: Tree, text: string): FileFacts {
  const facts = new FactsCollector(text, 'go');
  const draft: GoDraft = {
    facts,
    structs: [],
    methodsByReceiver: new Map(),
    importedPackages: new Map(),
  };
  walkGo(tree.rootNode, draft);
  for (const { name, range } of draft.structs) {
    facts.addClass({
      name,
      range,
      extends: null,
      implements: [],
      abstract: false,
      staticOnly: false,
      methods: draft.methodsByReceiver.get(name) ?? 0,
    });
  }
  for (const error of syntaxDiagnostics(tree.rootNode)) facts.diagnostic(error);
  return facts.finish();
}
