import type * as ts from 'typescript';
import { typescript } from '../typescript-runtime.js';

/**
 * What the walk does with each node kind, looked up in a table indexed by kind: a `switch` over
 * `ts.SyntaxKind.X` cases reloads the enum's properties case by case, and on a hot path that
 * cost a fifth of the extraction time.
 */
export const Category = {
  none: 0,
  /** A literal whose text may hold `//` or `/*`: skipped by the comment scan. */
  string: 1,
  token: 2,
  jsxText: 3,
  template: 4,
  function: 5,
  class: 6,
  interface: 7,
  heritage: 8,
  decision: 9,
  binary: 10,
  importType: 11,
  call: 12,
  construction: 13,
  propertyAccess: 14,
  importDeclaration: 15,
  importEquals: 16,
  exportDeclaration: 17,
  identifier: 18,
  jsxElement: 19,
  decorator: 20,
} as const;

const K = typescript.SyntaxKind;
const KINDS: readonly (readonly [number, readonly ts.SyntaxKind[]])[] = [
  [Category.string, [K.StringLiteral, K.NoSubstitutionTemplateLiteral]],
  [Category.token, [K.TemplateHead, K.TemplateMiddle, K.TemplateTail, K.RegularExpressionLiteral]],
  [Category.jsxText, [K.JsxText]],
  [Category.template, [K.TemplateExpression, K.TemplateLiteralType]],
  [
    Category.function,
    [
      K.FunctionDeclaration,
      K.FunctionExpression,
      K.ArrowFunction,
      K.MethodDeclaration,
      K.Constructor,
      K.GetAccessor,
      K.SetAccessor,
    ],
  ],
  [Category.class, [K.ClassDeclaration, K.ClassExpression]],
  [Category.interface, [K.InterfaceDeclaration]],
  [Category.heritage, [K.HeritageClause]],
  [
    Category.decision,
    [
      K.IfStatement,
      K.ForStatement,
      K.ForInStatement,
      K.ForOfStatement,
      K.WhileStatement,
      K.DoStatement,
      K.CaseClause,
      K.CatchClause,
      K.ConditionalExpression,
    ],
  ],
  [Category.binary, [K.BinaryExpression]],
  [Category.importType, [K.ImportType]],
  [Category.call, [K.CallExpression, K.TaggedTemplateExpression]],
  [Category.construction, [K.NewExpression]],
  [Category.propertyAccess, [K.PropertyAccessExpression]],
  [Category.importDeclaration, [K.ImportDeclaration]],
  [Category.importEquals, [K.ImportEqualsDeclaration]],
  [Category.exportDeclaration, [K.ExportDeclaration]],
  [Category.identifier, [K.Identifier]],
  [Category.jsxElement, [K.JsxSelfClosingElement, K.JsxOpeningElement, K.JsxOpeningFragment]],
  [Category.decorator, [K.Decorator]],
];

const CATEGORIES = new Uint8Array(K.Count);
for (const [category, kinds] of KINDS) for (const kind of kinds) CATEGORIES[kind] = category;

export function categoryOf(node: ts.Node): number {
  return CATEGORIES[node.kind] ?? Category.none;
}
