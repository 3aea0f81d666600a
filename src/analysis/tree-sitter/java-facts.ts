import type { Node, Tree } from 'web-tree-sitter';
import type { FileFacts } from '../../model/facts.js';
import { FactsCollector, type FunctionHeader } from './facts-collector.js';
import {
  isTypeDeclaration,
  type JavaSource,
  readCall,
  readField,
  readImport,
  readTypeDeclaration,
  type Scope,
} from './java-readers.js';
import { JavaReferences } from './java-references.js';
import { ANONYMOUS, rangeOf, syntaxDiagnostics, walkInSourceOrder } from './syntax-tree.js';

/**
 * The facts of one Java file, from its web-tree-sitter tree and its text. Pure: no I/O.
 *
 * How each fact maps onto Java (details in the module each rule lives in):
 * - lines: `//` and `/* *\/` comments (Javadoc included); a multi-line text block is code.
 * - classes, abstractions, exports, mutable state: java-readers.ts.
 * - functions and complexity: below; calls, reflection, event subscriptions, imports and DI
 *   containers: java-readers.ts; the names the import graph resolves: java-references.ts.
 * - a tree with syntax errors still yields the facts of what parsed, plus a diagnostic per
 *   syntax error at its line and column (syntax-tree.ts); the extractor never throws.
 */
export function extractJavaFacts(tree: Tree, text: string): FileFacts {
  const facts = new FactsCollector(text, 'java');
  const references = new JavaReferences();
  walkJava(tree.rootNode, { facts, references });
  for (const error of syntaxDiagnostics(tree.rootNode)) facts.diagnostic(error);
  return { ...facts.finish(), java: references.finish(facts.lines) };
}

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
  source.references.read(node, type);
  if (scope.fn !== undefined && isDecisionPoint(node, type)) scope.fn.complexity += 1;
  if (FUNCTIONS.has(type)) {
    const header = functionHeader(node, scope);
    if (header === undefined) return scope;
    return { ...scope, fn: source.facts.openFunction(header) };
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
function walkJava(root: Node, source: JavaSource): void {
  walkInSourceOrder(root, FILE_SCOPE, (node, type, scope) => visit(node, type, scope, source));
}

/**
 * Java functions: methods with a body (`Type.method`; abstract and interface methods without a
 * body are signatures, not functions), constructors (`Type.Type`: their declared name is the
 * type's) and lambdas (kind `arrow`). A lambda takes the name of the variable it initialises
 * (`Type.field` for a field, as TypeScript names class fields holding functions) or of the
 * variable or field it is assigned to; otherwise it is `(anonymous)`. Methods of anonymous
 * classes are `(anonymous).method`. Parameters: formal and varargs parameters; the receiver
 * parameter (`Foo this`) is not one.
 */

const COUNTED_PARAMETERS = new Set(['formal_parameter', 'spread_parameter', 'identifier']);

function countParameters(parameters: Node | null): number {
  if (parameters === null) return 0;
  if (parameters.type === 'identifier') return 1;
  return parameters.namedChildren.filter((parameter) => COUNTED_PARAMETERS.has(parameter.type))
    .length;
}

function lambdaName(lambda: Node, scope: Scope): string {
  const parent = lambda.parent;
  if (
    parent?.type === 'variable_declarator' &&
    parent.childForFieldName('value')?.id === lambda.id
  ) {
    const name = parent.childForFieldName('name')?.text ?? ANONYMOUS;
    const isField = parent.parent?.type === 'field_declaration';
    return isField ? `${scope.typeName ?? ANONYMOUS}.${name}` : name;
  }
  if (
    parent?.type === 'assignment_expression' &&
    parent.childForFieldName('right')?.id === lambda.id
  ) {
    const target = parent.childForFieldName('left');
    if (target?.type === 'identifier') return target.text;
    if (target?.type === 'field_access')
      return target.childForFieldName('field')?.text ?? ANONYMOUS;
  }
  return ANONYMOUS;
}

/** The header of a method, constructor or lambda; undefined for a method without a body. */
export function functionHeader(node: Node, scope: Scope): FunctionHeader | undefined {
  const range = rangeOf(node);
  const parameters = countParameters(node.childForFieldName('parameters'));
  if (node.type === 'lambda_expression') {
    return { name: lambdaName(node, scope), kind: 'arrow', range, parameters };
  }
  if (node.childForFieldName('body') === null) return undefined;
  const declared = node.childForFieldName('name')?.text ?? ANONYMOUS;
  const name = `${scope.typeName ?? ANONYMOUS}.${declared}`;
  const kind = node.type === 'method_declaration' ? 'method' : 'constructor';
  return { name, kind, range, parameters };
}
