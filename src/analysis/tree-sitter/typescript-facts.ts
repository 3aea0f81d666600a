import type { Node, Tree } from 'web-tree-sitter';
import type { FileFacts } from '../../model/facts.js';
import { FactsCollector } from './facts-collector.js';
import { DECISION_OPERATORS } from './javascript-conventions.js';
import { syntaxDiagnostics } from './tree-diagnostics.js';
import { recordCall, recordConstruction, recordMemberAccess } from './typescript-calls.js';
import {
  visitClass,
  visitFunction,
  visitInterface,
  visitNamedChildren,
  visitTypeAssertion,
} from './typescript-declarations.js';
import {
  recordCommonJsExports,
  recordExports,
  recordImport,
  recordReexport,
} from './typescript-modules.js';
import { declarationStart } from './typescript-names.js';
import { recordTopLevelState } from './typescript-state.js';
import type { Scope, Source } from './typescript-syntax.js';
import { recordUse, watchImportedNames } from './typescript-uses.js';

const TOP_LEVEL: Scope = { fn: null, className: null, inType: false };

const FUNCTIONS = new Set([
  'function_declaration',
  'generator_function_declaration',
  'function_expression',
  'generator_function',
  'arrow_function',
  'method_definition',
]);

const CLASSES = new Set(['class_declaration', 'abstract_class_declaration', 'class']);

/** Statements and expressions that are one decision point each (FunctionFact.complexity). */
const DECISIONS = new Set([
  'if_statement',
  'for_statement',
  'for_in_statement',
  'while_statement',
  'do_statement',
  'switch_case',
  'catch_clause',
  'ternary_expression',
]);

/** Nodes that hold only types: conditional types there are no decisions, calls no calls. */
const TYPE_CONTEXTS = new Set([
  'type_annotation',
  'opting_type_annotation',
  'omitting_type_annotation',
  'adding_type_annotation',
  'asserts_annotation',
  'type_predicate_annotation',
  'type_arguments',
  'type_parameters',
  'type_alias_declaration',
  'implements_clause',
  'extends_type_clause',
  'type_query',
]);

/**
 * The facts of a TypeScript, TSX or JavaScript file from its web-tree-sitter tree, in one walk
 * over the named nodes. Must equal extractTypeScriptFacts on the same text (the parity tests).
 */
export function extractTreeSitterFacts(
  tree: Tree,
  text: string,
  language: 'typescript' | 'tsx' | 'javascript',
): FileFacts {
  const source: Source = { text, facts: new FactsCollector(text, language) };
  const root = tree.rootNode;
  watchImportedNames(source, root);
  for (let index = 0; index < root.namedChildCount; index++) {
    const statement = root.namedChild(index);
    if (statement === null) continue;
    recordTopLevel(source, statement);
    visit(source, statement, TOP_LEVEL);
  }
  for (const error of syntaxDiagnostics(root)) source.facts.diagnostic(error);
  return source.facts.finish();
}

function recordTopLevel(source: Source, statement: Node): void {
  if (statement.type === 'export_statement') recordExports(source, statement);
  if (statement.type === 'expression_statement') recordCommonJsExports(source, statement);
  recordTopLevelState(source, statement);
}

function visit(source: Source, node: Node, scope: Scope): void {
  const { type } = node;
  if (source.facts.uses.watching) recordUse(source, node);
  switch (type) {
    case 'comment':
    case 'hash_bang_line':
      source.facts.comment({ start: node.startIndex, end: node.endIndex });
      return;
    case 'string':
      source.facts.string({ start: node.startIndex, end: node.endIndex });
      return;
    case 'regex':
      return;
    case 'template_string':
    case 'template_literal_type':
      source.facts.string({ start: node.startIndex, end: node.endIndex });
      break;
  }
  if (scope.inType || TYPE_CONTEXTS.has(type)) {
    if (type === 'call_expression') recordCall(source, node, scope);
    visitChildren(source, node, scope.inType ? scope : { ...scope, inType: true });
    return;
  }
  if (FUNCTIONS.has(type)) {
    visitFunction(source, node, scope, declarationStart(node), visit);
    return;
  }
  if (CLASSES.has(type)) {
    visitClass(source, node, scope, visit);
    return;
  }
  if (DECISIONS.has(type) && scope.fn !== null) scope.fn.complexity++;
  switch (type) {
    case 'interface_declaration':
      visitInterface(source, node, scope, visit);
      return;
    case 'as_expression':
    case 'satisfies_expression':
      visitTypeAssertion(source, node, scope, visit);
      return;
    case 'call_expression':
      recordCall(source, node, scope);
      break;
    case 'new_expression':
      recordConstruction(source, node, scope);
      break;
    case 'member_expression':
      recordMemberAccess(source, node);
      break;
    case 'import_statement':
      recordImport(source, node);
      break;
    case 'export_statement':
      recordReexport(source, node);
      break;
    case 'binary_expression':
    case 'augmented_assignment_expression': {
      const operator = node.childForFieldName('operator')?.type;
      if (scope.fn !== null && operator !== undefined && DECISION_OPERATORS.has(operator)) {
        scope.fn.complexity++;
      }
      break;
    }
  }
  visitChildren(source, node, scope);
}

function visitChildren(source: Source, node: Node, scope: Scope): void {
  visitNamedChildren(source, node, scope, visit);
}
