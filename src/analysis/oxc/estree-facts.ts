import type { Node, Program } from 'oxc-parser';
import type { FileFacts } from '../../model/facts.js';
import { DECISION_OPERATORS, TYPESCRIPT_IN_JAVASCRIPT } from '../javascript-conventions.js';
import { FactsCollector, type ParseError } from '../tree-sitter/facts-collector.js';
import type { TextRange } from '../tree-sitter/line-index.js';
import {
  collectRequireAliases,
  recordCall,
  recordConstruction,
  recordDynamicImport,
  recordMemberAccess,
  recordTypeImport,
} from './calls.js';
import { asFunction, visitClass, visitFunction, visitInterface } from './declarations.js';
import { recordDecorator } from './decorator-metadata.js';
import { recordLoaderReference } from './loader-references.js';
import {
  recordCommonJsExports,
  recordExports,
  recordImport,
  recordImportEquals,
  recordReexport,
  recordTopLevelState,
} from './modules.js';
import type { ScriptLanguage } from './parse-program.js';
import type { Scope, Source } from './syntax.js';
import { visitChildren } from './tree-walk.js';
import { typeScriptOnlyStart } from './typescript-only-syntax.js';
import {
  recordIdentifier,
  recordJsxElement,
  recordJsxName,
  recordLocalExport,
  watchImportedNames,
} from './uses.js';

const TOP_LEVEL: Scope = { fn: null, className: null, inType: false };

/** A TS/JS file's tree in the TS-ESTree shape, from oxc or converted from TypeScript's. */
export interface ScriptTree {
  readonly program: Program;
  /** The comments, a `#!` line among them. */
  readonly comments: readonly TextRange[];
  /** The syntax errors the parser found, in its own words. */
  readonly diagnostics: readonly ParseError[];
}

/**
 * The facts of a TypeScript, TSX or JavaScript file, in one walk over its TS-ESTree tree: the
 * one reading of TS/JS, whichever parser made the tree (oxc's, or TypeScript's converted by
 * typescript-estree), so that a change to the facts is made once.
 */
export function extractEstreeFacts(
  text: string,
  language: ScriptLanguage,
  tree: ScriptTree,
): FileFacts {
  const { program } = tree;
  const facts = new FactsCollector(text, language);
  const typeScriptSyntax = { check: language === 'javascript', at: null };
  const requireAliases = new Set<string>();
  const source: Source = { text, facts, ancestors: [program], typeScriptSyntax, requireAliases };
  watchImportedNames(source, program);
  collectRequireAliases(source, program);
  for (const statement of program.body) {
    recordExports(source, statement);
    if (statement.type === 'ExpressionStatement') recordCommonJsExports(source, statement);
    recordTopLevelState(source, statement);
    visit(source, statement, TOP_LEVEL);
  }
  for (const comment of tree.comments) facts.comment(comment);
  for (const error of tree.diagnostics) facts.diagnostic(error);
  const typeScriptOnly = typeScriptSyntax.at;
  if (typeScriptOnly !== null) {
    facts.diagnostic({ message: TYPESCRIPT_IN_JAVASCRIPT, at: typeScriptOnly });
  }
  return facts.finish();
}

function visit(source: Source, node: Node, scope: Scope): void {
  const { typeScriptSyntax } = source;
  if (typeScriptSyntax.check) {
    const at = typeScriptOnlyStart(source, node);
    if (at !== null && (typeScriptSyntax.at === null || at < typeScriptSyntax.at)) {
      typeScriptSyntax.at = at;
    }
  }
  const { fn } = scope;
  switch (node.type) {
    case 'Literal':
      if (typeof node.value === 'string') source.facts.string(node);
      return;
    case 'TemplateLiteral':
    case 'TSTemplateLiteralType':
      source.facts.string(node);
      break;
    case 'FunctionDeclaration':
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
    case 'MethodDefinition':
    case 'Property': {
      const asFn = asFunction(node);
      if (asFn !== null) {
        visitFunction(source, asFn, scope, visit);
        return;
      }
      break;
    }
    case 'ClassDeclaration':
    case 'ClassExpression':
      visitClass(source, node, scope, visit);
      return;
    case 'TSInterfaceDeclaration':
      visitInterface(source, node, scope, visit);
      return;
    case 'IfStatement':
    case 'ForStatement':
    case 'ForInStatement':
    case 'ForOfStatement':
    case 'WhileStatement':
    case 'DoWhileStatement':
    case 'CatchClause':
    case 'ConditionalExpression':
      if (fn !== null) fn.complexity++;
      break;
    case 'SwitchCase':
      // `default:` is no decision.
      if (fn !== null && node.test !== null) fn.complexity++;
      break;
    case 'LogicalExpression':
    case 'AssignmentExpression':
      if (fn !== null && DECISION_OPERATORS.has(node.operator)) fn.complexity++;
      break;
    case 'TSImportType':
      recordTypeImport(source, node);
      break;
    case 'ImportExpression':
      recordDynamicImport(source, node);
      break;
    case 'CallExpression':
    case 'TaggedTemplateExpression':
      recordCall(source, node, scope);
      break;
    case 'NewExpression':
      recordConstruction(source, node, scope);
      break;
    case 'MemberExpression':
      if (!scope.inType) recordMemberAccess(source, node);
      break;
    case 'ImportDeclaration':
      recordImport(source, node);
      break;
    case 'TSImportEqualsDeclaration':
      recordImportEquals(source, node);
      break;
    case 'ExportNamedDeclaration':
      recordReexport(source, node);
      recordLocalExport(source, node);
      break;
    case 'ExportAllDeclaration':
      recordReexport(source, node);
      break;
    case 'Identifier':
      recordIdentifier(source, node);
      recordLoaderReference(source, node, scope);
      break;
    case 'JSXIdentifier':
      recordJsxName(source, node);
      break;
    case 'JSXOpeningElement':
    case 'JSXOpeningFragment':
      recordJsxElement(source, node);
      break;
    case 'Decorator':
      recordDecorator(source, node);
      break;
  }
  visitChildren(source, node, scope, visit);
}
