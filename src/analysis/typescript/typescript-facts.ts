import type * as ts from 'typescript';
import type { FileFacts } from '../../model/facts.js';
import { DECISION_OPERATORS, TYPESCRIPT_IN_JAVASCRIPT } from '../javascript-conventions.js';
import { FactsCollector } from '../tree-sitter/facts-collector.js';
import { typescript } from '../typescript-runtime.js';
import { recordCall, recordConstruction, recordMemberAccess, recordTypeImport } from './calls.js';
import { commentRanges } from './comment-ranges.js';
import { visitClass, visitFunction } from './declarations.js';
import { recordDecorator } from './decorator-metadata.js';
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
import { recordIdentifier, recordJsxElement, watchImportedNames } from './uses.js';

type ScriptLanguage = 'typescript' | 'tsx' | 'javascript';

const SCRIPT_KINDS: Readonly<Record<ScriptLanguage, ts.ScriptKind>> = {
  typescript: typescript.ScriptKind.TS,
  tsx: typescript.ScriptKind.TSX,
  // JavaScript files may hold JSX, as oxc's JavaScript parse (`jsx`) allows.
  javascript: typescript.ScriptKind.JS,
};

const TOP_LEVEL: Scope = { fn: null, className: null, inType: false };

/**
 * The facts of a TypeScript, TSX or JavaScript file from TypeScript's own parser (no type
 * checker), in one walk. Must equal extractOxcFacts on the same text (the parity tests).
 */
export function extractTypeScriptFacts(text: string, language: ScriptLanguage): FileFacts {
  const file = typescript.createSourceFile(
    language === 'javascript' ? 'source.js' : `source.${language === 'tsx' ? 'tsx' : 'ts'}`,
    text,
    // JSDoc is a comment here: parsing the types inside it would only cost time.
    {
      languageVersion: typescript.ScriptTarget.Latest,
      jsDocParsingMode: typescript.JSDocParsingMode.ParseNone,
    },
    true,
    SCRIPT_KINDS[language],
  );
  const facts = new FactsCollector(text, language);
  const typeScriptSyntax = { check: language === 'javascript', at: null };
  const source: Source = { text, file, facts, opaque: [], typeScriptSyntax };
  watchImportedNames(source, file.statements);
  for (const statement of file.statements) {
    recordExports(source, statement);
    if (typescript.isExpressionStatement(statement)) recordCommonJsExports(source, statement);
    recordTopLevelState(source, statement);
    visit(source, statement, TOP_LEVEL);
  }
  source.opaque.sort((a, b) => a.start - b.start);
  for (const comment of commentRanges(text, source.opaque)) facts.comment(comment);
  for (const error of parseDiagnostics(file)) facts.diagnostic(error);
  const typeScriptOnly = source.typeScriptSyntax.at;
  if (typeScriptOnly !== null) {
    facts.diagnostic({ message: TYPESCRIPT_IN_JAVASCRIPT, at: typeScriptOnly });
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
      if (typescript.isClassLike(node)) {
        visitClass(source, node, scope, visit);
        return;
      }
      break;
    case Category.interface:
      if (typescript.isInterfaceDeclaration(node)) {
        const dataOnly = node.members.every(isDataMember);
        const extended = node.heritageClauses?.find(
          (clause) => clause.token === typescript.SyntaxKind.ExtendsKeyword,
        );
        source.facts.addAbstraction(
          textOf(source, node.name),
          'interface',
          rangeOf(source, node),
          dataOnly,
          (extended?.types ?? []).map((type) => textOf(source, type.expression)),
        );
      }
      visitChildren(source, node, { ...scope, inType: true });
      return;
    case Category.heritage:
      if (
        typescript.isHeritageClause(node) &&
        node.token === typescript.SyntaxKind.ImplementsKeyword
      ) {
        visitChildren(source, node, { ...scope, inType: true });
        return;
      }
      break;
    case Category.decision:
      if (fn !== null) fn.complexity++;
      break;
    case Category.binary:
      if (fn !== null && typescript.isBinaryExpression(node)) {
        const operator = typescript.tokenToString(node.operatorToken.kind);
        if (operator !== undefined && DECISION_OPERATORS.has(operator)) fn.complexity++;
      }
      break;
    case Category.importType:
      if (typescript.isImportTypeNode(node)) recordTypeImport(source, node);
      break;
    case Category.call:
      if (typescript.isCallExpression(node) || typescript.isTaggedTemplateExpression(node)) {
        recordCall(source, node, scope);
      }
      break;
    case Category.construction:
      if (typescript.isNewExpression(node)) recordConstruction(source, node, scope);
      break;
    case Category.propertyAccess:
      if (typescript.isPropertyAccessExpression(node) && !scope.inType)
        recordMemberAccess(source, node);
      break;
    case Category.importDeclaration:
      if (typescript.isImportDeclaration(node)) recordImport(source, node);
      break;
    case Category.importEquals:
      if (typescript.isImportEqualsDeclaration(node)) recordImportEquals(source, node);
      break;
    case Category.exportDeclaration:
      if (typescript.isExportDeclaration(node)) recordReexport(source, node);
      break;
    case Category.identifier:
      if (typescript.isIdentifier(node)) recordIdentifier(source, node);
      break;
    case Category.jsxElement:
      recordJsxElement(source, node);
      break;
    case Category.decorator:
      if (typescript.isDecorator(node)) recordDecorator(source, node);
      break;
  }
  visitChildren(source, node, scope);
}

function visitChildren(source: Source, node: ts.Node, scope: Scope): void {
  typescript.forEachChild(node, (child) => visit(source, child, scope));
}

/** A member of an interface of data: not a method, call or construct signature. */
function isDataMember(member: ts.TypeElement): boolean {
  return (
    !typescript.isMethodSignature(member) &&
    !typescript.isCallSignatureDeclaration(member) &&
    !typescript.isConstructSignatureDeclaration(member)
  );
}
