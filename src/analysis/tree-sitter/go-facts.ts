import type { Node, Tree } from 'web-tree-sitter';
import type { FileFacts } from '../../model/facts.js';
import { FactsCollector } from './facts-collector.js';
import {
  functionHeader,
  type GoDraft,
  isExportedName,
  readCall,
  readImportSpec,
  readLinkname,
  readPackageValueSpec,
  readTypeSpec,
  receiverTypeName,
  type Scope,
} from './go-readers.js';
import { rangeOf, syntaxDiagnostics, walkInSourceOrder } from './syntax-tree.js';

/**
 * The facts of one Go file, from its web-tree-sitter tree and its text. Pure: no I/O.
 *
 * How each fact maps onto Go (details in the module each rule lives in):
 * - lines: `//` and `/* *\/` comments; a multi-line raw string is code.
 * - classes: named struct types, spanning their type spec; `methods` counts the methods
 *   declared in this file on `T` or `*T`; Go has no inheritance, abstract or static members, so
 *   `extends` is null, `implements` empty, `abstract` and `staticOnly` false.
 * - abstractions: interface types that are not mere type constraints (go-readers.ts).
 * - functions, complexity, calls: the walk below and go-readers.ts.
 * - exports: capitalised package-level names (funcs, types, vars, consts); methods are not.
 * - mutable state: package-level `var`s (go-readers.ts for the exceptions).
 * - a tree with syntax errors still yields the facts of what parsed, plus a diagnostic per
 *   syntax error at its line and column (syntax-tree.ts); the extractor never throws.
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
  return buildIgnored(tree.rootNode) ? { ...facts.finish(), buildIgnored: true } : facts.finish();
}

/**
 * Whether a build constraint before the package clause requires the tag `ignore`: the line
 * `//go:build ignore`, `ignore` as one of its `&&` terms, or the legacy `// +build ignore`.
 * Constraints that choose platforms or other tags are not evaluated (FileFacts `buildIgnored`).
 */
function buildIgnored(root: Node): boolean {
  for (const child of root.namedChildren) {
    if (child?.type !== 'comment') return false;
    const text = child.text.trimEnd();
    if (/^\/\/\s*\+build\s+ignore$/.test(text)) return true;
    const expression = /^\/\/go:build\s+([^|()]*)$/.exec(text)?.[1];
    if (expression?.split('&&').some((term) => term.trim() === 'ignore')) return true;
  }
  return false;
}

/**
 * One pass over a Go tree, in source order, with an explicit stack.
 *
 * Complexity: 1 + `if` (each `else if` is another `if`), `for` (every form), each `case` of an
 * expression switch, a type switch or a `select` (not `default`), each `&&` and `||`. Go has no
 * `?:` and no `catch`.
 */

const DECISION_POINTS = new Set([
  'if_statement',
  'for_statement',
  'expression_case',
  'type_case',
  'communication_case',
]);
const FUNCTIONS = new Set(['function_declaration', 'method_declaration', 'func_literal']);
const STRINGS = new Set(['interpreted_string_literal', 'raw_string_literal']);
const PACKAGE_SCOPE: Scope = { fn: undefined, packageLevel: true };

function isDecisionPoint(node: Node, type: string): boolean {
  if (DECISION_POINTS.has(type)) return true;
  if (type !== 'binary_expression') return false;
  const operator = node.childForFieldName('operator')?.type;
  return operator === '&&' || operator === '||';
}

function enterFunction(node: Node, draft: GoDraft): Scope {
  if (node.type === 'method_declaration') {
    const receiver = receiverTypeName(node);
    draft.methodsByReceiver.set(receiver, (draft.methodsByReceiver.get(receiver) ?? 0) + 1);
  }
  const declared = node.childForFieldName('name');
  if (node.type === 'function_declaration' && declared !== null && isExportedName(declared.text)) {
    draft.facts.addExport(declared.text, false, declared.startIndex);
  }
  return { fn: draft.facts.openFunction(functionHeader(node)), packageLevel: false };
}

/** Reads one node (`type` is read once per node: each read crosses into WebAssembly). */
function visit(node: Node, type: string, scope: Scope, draft: GoDraft): Scope {
  if (scope.fn !== undefined && isDecisionPoint(node, type)) scope.fn.complexity += 1;
  if (FUNCTIONS.has(type)) return enterFunction(node, draft);
  if (STRINGS.has(type)) draft.facts.string(rangeOf(node));
  switch (type) {
    case 'comment':
      draft.facts.comment(rangeOf(node));
      readLinkname(node, draft);
      break;
    case 'import_spec':
      readImportSpec(node, draft);
      break;
    case 'type_spec':
    case 'type_alias':
      readTypeSpec(node, scope, draft);
      break;
    case 'var_spec':
    case 'const_spec':
      if (scope.packageLevel) readPackageValueSpec(node, draft);
      break;
    case 'call_expression':
      readCall(node, scope, draft);
      break;
  }
  return scope;
}

/** Walks the whole tree in source order. */
function walkGo(root: Node, draft: GoDraft): void {
  walkInSourceOrder(root, PACKAGE_SCOPE, (node, type, scope) => visit(node, type, scope, draft));
}
