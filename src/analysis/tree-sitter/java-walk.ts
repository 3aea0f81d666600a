import type { Node } from 'web-tree-sitter';
import { readCall, readImport } from './java-calls.js';
import { ANONYMOUS, type JavaSource, rangeOf, type Scope } from './java-draft.js';
import { functionHeader } from './java-functions.js';
import { isTypeDeclaration, readField, readTypeDeclaration } from './java-types.js';
import { walkInSourceOrder } from './walk-in-source-order.js';

/**
 * One pass over a Java tree, in source order, with an explicit stack.
 *
 * Complexity: 1 + `if`, `for`, enhanced `for`, `while`, `do`, each `case` label (not
 * `default`; `case 1, 2:` is one label), `catch`, `?:`, each `&&` and `||`.
 */

const DECISION_POINTS = new Set([
  'if_statement',
  'for_statement',
  'enhanced_for_statement',
  'while_statement',
  'do_statement',
  'catch_clause',
  'ternary_expression',
]);
const FUNCTIONS = new Set([
  'method_declaration',
  'constructor_declaration',
  'compact_constructor_declaration',
  'lambda_expression',
]);
const CALLS = new Set([
  'method_invocation',
  'object_creation_expression',
  'explicit_constructor_invocation',
]);
const COMMENTS = new Set(['line_comment', 'block_comment']);
const FILE_SCOPE: Scope = { fn: undefined, typeName: undefined };

function isDecisionPoint(node: Node, type: string): boolean {
  if (DECISION_POINTS.has(type)) return true;
  if (type === 'switch_label') return node.firstChild?.type === 'case';
  if (type !== 'binary_expression') return false;
  const operator = node.childForFieldName('operator')?.type;
  return operator === '&&' || operator === '||';
}

/** Reads one node (`type` is read once per node: each read crosses into WebAssembly). */
function visit(node: Node, type: string, scope: Scope, source: JavaSource): Scope {
  if (scope.fn !== undefined && isDecisionPoint(node, type)) scope.fn.complexity += 1;
  if (FUNCTIONS.has(type)) {
    const header = functionHeader(node, scope);
    if (header === undefined) return scope;
    const { name, kind, range, parameters } = header;
    return { ...scope, fn: source.facts.openFunction(name, kind, range, parameters) };
  }
  // A class body is a scope of its own: its initialisers are not the enclosing method's code.
  if (isTypeDeclaration(type))
    return { fn: undefined, typeName: readTypeDeclaration(node, source) };
  if (CALLS.has(type)) readCall(node, scope, source);
  if (COMMENTS.has(type)) source.facts.comment(rangeOf(node));
  switch (type) {
    case 'class_body':
      // An anonymous class (`new T() { … }`) or an enum constant's body.
      return node.parent?.type === 'object_creation_expression' ||
        node.parent?.type === 'enum_constant'
        ? { fn: undefined, typeName: ANONYMOUS }
        : scope;
    case 'string_literal':
      source.facts.string(rangeOf(node));
      break;
    case 'import_declaration':
      readImport(node, source);
      break;
    case 'field_declaration':
      readField(node, source);
      break;
  }
  return scope;
}

/** Walks the whole tree in source order. */
export function walkJava(root: Node, source: JavaSource): void {
  walkInSourceOrder(root, FILE_SCOPE, (node, type, scope) => visit(node, type, scope, source));
}
