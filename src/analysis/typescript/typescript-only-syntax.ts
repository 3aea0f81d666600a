import type * as ts from 'typescript';
import { typescript } from '../typescript-runtime.js';

const K = typescript.SyntaxKind;
const ALWAYS = 1;
const NEVER = 2;
const PARAMETER = 3;
const HERITAGE = 4;
const EXPORT_ASSIGNMENT = 5;

/** By kind, as a table: the check runs on every node of a JavaScript file. */
const RULES = new Uint8Array(K.Count);
for (const kind of [
  K.InterfaceDeclaration,
  K.TypeAliasDeclaration,
  K.EnumDeclaration,
  K.ModuleDeclaration,
  K.NonNullExpression,
  K.ImportEqualsDeclaration,
  K.PublicKeyword,
  K.PrivateKeyword,
  K.ProtectedKeyword,
  K.ReadonlyKeyword,
  K.AbstractKeyword,
  K.OverrideKeyword,
  K.DeclareKeyword,
]) {
  RULES[kind] = ALWAYS;
}
// `class A extends B` holds one of these too, and is plain JavaScript.
RULES[K.ExpressionWithTypeArguments] = NEVER;
RULES[K.Parameter] = PARAMETER;
RULES[K.HeritageClause] = HERITAGE;
RULES[K.ExportAssignment] = EXPORT_ASSIGNMENT;

/**
 * Whether a node of a JavaScript file is TypeScript-only syntax (a type, an interface, `enum`,
 * `namespace`, `x!`, `private`, `implements`, `import x = require()`, `export =`, `a?: T`).
 * TypeScript's parser accepts them in .js files and leaves the complaint to a Program. A
 * JavaScript file runs as written, where they do not parse: both extractors call it broken.
 */
export function isTypeScriptOnly(node: ts.Node): boolean {
  switch (RULES[node.kind]) {
    case ALWAYS:
      return true;
    case NEVER:
      return false;
    case PARAMETER:
      return typescript.isParameter(node) && node.questionToken !== undefined;
    case HERITAGE:
      return typescript.isHeritageClause(node) && node.token === K.ImplementsKeyword;
    case EXPORT_ASSIGNMENT:
      return typescript.isExportAssignment(node) && node.isExportEquals === true;
    default:
      return typescript.isTypeNode(node);
  }
}
