import ts from 'typescript';
import type { FileFacts } from '../../model/facts.js';
import { FactsCollector } from '../tree-sitter/facts-collector.js';
import { DECISION_OPERATORS } from '../tree-sitter/javascript-conventions.js';
import { recordCall, recordConstruction, recordMemberAccess, recordTypeImport } from './calls.js';
import { commentRanges } from './comment-ranges.js';
import { visitClass, visitFunction } from './declarations.js';
import {
  recordCommonJsExports,
  recordExports,
  recordImport,
  recordImportEquals,
  recordReexport,
  recordTopLevelState,
} from './modules.js';
import { Category, categoryOf } from './node-categories.js';
import { parseDiagnostics } from './parse-diagnostics.js';
import { rangeOf, type Scope, type Source, textOf } from './syntax.js';
import { isTypeScriptOnly } from './typescript-only-syntax.js';

type ScriptLanguage = 'typescript' | 'tsx' | 'javascript';

const SCRIPT_KINDS: Readonly<Record<ScriptLanguage, ts.ScriptKind>> = {
  typescript: ts.ScriptKind.TS,
  tsx: ts.ScriptKind.TSX,
  // JavaScript files may hold JSX, as tree-sitter's JavaScript grammar allows.
  javascript: ts.ScriptKind.JS,
};

const TOP_LEVEL: Scope = { fn: null, className: null, inType: false };

/**
 * The facts of a TypeScript, TSX or JavaScript file from TypeScript's own parser (no type
 * checker), in one walk. Must equal extractTreeSitterFacts on the same text (the parity tests).
 */
export function extractTypeScriptFacts(text: string, language: ScriptLanguage): FileFacts {
  const file = ts.createSourceFile(
    language === 'javascript' ? 'source.js' : `source.${language === 'tsx' ? 'tsx' : 'ts'}`,
    text,
    // JSDoc is a comment here: parsing the types inside it would only cost time.
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    true,
    SCRIPT_KINDS[language],
  );
  const facts = new FactsCollector(text, language);
  const typeScriptSyntax = { check: language === 'javascript', at: null };
  const source: Source = { text, file, facts, opaque: [], typeScriptSyntax };
  for (const statement of file.statements) {
    recordExports(source, statement);
    if (ts.isExpressionStatement(statement)) recordCommonJsExports(source, statement);
    recordTopLevelState(source, statement);
    visit(source, statement, TOP_LEVEL);
  }
  source.opaque.sort((a, b) => a.start - b.start);
  for (const comment of commentRanges(text, source.opaque)) facts.comment(comment);
  const { lineOf } = facts.lines;
  for (const message of parseDiagnostics(file, lineOf)) facts.diagnostic(message);
  const typeScriptOnly = source.typeScriptSyntax.at;
  if (typeScriptOnly !== null) {
    facts.diagnostic(`line ${lineOf(typeScriptOnly)}: TypeScript syntax in a JavaScript file`);
  }
  return facts.finish();
}

function visit(source: Source, node: ts.Node, scope: Scope): void {
  const { typeScriptSyntax } = source;
  if (typeScriptSyntax.check && typeScriptSyntax.at === null && isTypeScriptOnly(node)) {
    typeScriptSyntax.at = node.getStart(source.file);
  }
  const { fn } = scope;
  switch (categoryOf(node)) {
    case Category.string: {
      const range = rangeOf(source, node);
      source.opaque.push(range);
      source.facts.string(range);
      return;
    }
    case Category.token:
      source.opaque.push(rangeOf(source, node));
      return;
    case Category.jsxText:
      // JSX text has no leading trivia: all of it, from `pos`, is text.
      source.opaque.push({ start: node.pos, end: node.end });
      return;
    case Category.template:
      source.facts.string(rangeOf(source, node));
      break;
    case Category.function:
      if (visitFunction(source, node, scope, visit)) return;
      break;
    case Category.class:
      if (ts.isClassLike(node)) {
        visitClass(source, node, scope, visit);
        return;
      }
      break;
    case Category.interface:
      if (ts.isInterfaceDeclaration(node)) {
        source.facts.addAbstraction(textOf(source, node.name), 'interface', rangeOf(source, node));
      }
      visitChildren(source, node, { ...scope, inType: true });
      return;
    case Category.heritage:
      if (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ImplementsKeyword) {
        visitChildren(source, node, { ...scope, inType: true });
        return;
      }
      break;
    case Category.decision:
      if (fn !== null) fn.complexity++;
      break;
    case Category.binary:
      if (fn !== null && ts.isBinaryExpression(node)) {
        const operator = ts.tokenToString(node.operatorToken.kind);
        if (operator !== undefined && DECISION_OPERATORS.has(operator)) fn.complexity++;
      }
      break;
    case Category.importType:
      if (ts.isImportTypeNode(node)) recordTypeImport(source, node);
      break;
    case Category.call:
      if (ts.isCallExpression(node) || ts.isTaggedTemplateExpression(node)) {
        recordCall(source, node, scope);
      }
      break;
    case Category.construction:
      if (ts.isNewExpression(node)) recordConstruction(source, node, scope);
      break;
    case Category.propertyAccess:
      if (ts.isPropertyAccessExpression(node) && !scope.inType) recordMemberAccess(source, node);
      break;
    case Category.importDeclaration:
      if (ts.isImportDeclaration(node)) recordImport(source, node);
      break;
    case Category.importEquals:
      if (ts.isImportEqualsDeclaration(node)) recordImportEquals(source, node);
      break;
    case Category.exportDeclaration:
      if (ts.isExportDeclaration(node)) recordReexport(source, node);
      break;
  }
  visitChildren(source, node, scope);
}

function visitChildren(source: Source, node: ts.Node, scope: Scope): void {
  ts.forEachChild(node, (child) => visit(source, child, scope));
}
