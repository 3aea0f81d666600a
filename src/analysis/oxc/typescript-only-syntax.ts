import type { Node } from 'oxc-parser';
import type { Source } from './syntax.js';

/**
 * TS-ESTree nodes that are not themselves TypeScript-only for TypeScript's rule (see
 * typescript/typescript-only-syntax.ts): wrappers whose TypeScript node is plain (`x as T`,
 * `: T`, `<T>`), flagged through the type they hold, which may start on another line, and
 * bodiless functions, which TypeScript's parser accepts in JavaScript.
 */
const NOT_THEMSELVES = new Set([
  'TSTypeAnnotation',
  'TSTypeParameterInstantiation',
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSTypeAssertion',
  'TSInstantiationExpression',
  'TSDeclareFunction',
  'TSEmptyBodyFunctionExpression',
  'TSNamespaceExportDeclaration',
  // `<T>` of a generic declaration: TypeScript checks only the types in it.
  'TSTypeParameterDeclaration',
  'TSTypeParameter',
]);

/** Bindings whose `optional` is the `a?` of a parameter (on member chains it means `?.`). */
const PATTERNS = new Set([
  'Identifier',
  'ObjectPattern',
  'ArrayPattern',
  'RestElement',
  'AssignmentPattern',
]);

/**
 * Where a node of a JavaScript file starts being TypeScript-only syntax (a type,
 * an interface, `enum`, `namespace`, `x!`, `private`, `implements`, `import x = require()`,
 * `export =`, `a?`), or null. TypeScript reports a modifier at the keyword, not
 * at the decorators before it, nor at the start of the member it modifies.
 */
export function typeScriptOnlyStart(source: Source, node: Node): number | null {
  const { type } = node;
  if (type === 'TSClassImplements') return source.text.lastIndexOf('implements', node.start);
  const keywords = modifierKeywords(node);
  if (keywords !== null) return keywordStart(source, node, keywords);
  if (type.startsWith('TS')) return NOT_THEMSELVES.has(type) ? null : node.start;
  return PATTERNS.has(type) && 'optional' in node && node.optional === true ? node.start : null;
}

/** The TypeScript-only modifiers of a class, a member or a declaration, as written; or null. */
function modifierKeywords(node: Node): string[] | null {
  const abstract =
    node.type.startsWith('TSAbstract') || ('abstract' in node && node.abstract === true);
  const accessibility = 'accessibility' in node ? node.accessibility : null;
  const override = 'override' in node && node.override === true;
  const readonly = 'readonly' in node && node.readonly === true;
  const declare = 'declare' in node && node.declare === true;
  // Checked on every node of a JavaScript file, which almost never has one: no array then.
  if (!abstract && !accessibility && !override && !readonly && !declare) return null;
  const keywords = [
    abstract && 'abstract',
    accessibility,
    override && 'override',
    readonly && 'readonly',
    declare && 'declare',
  ];
  return keywords.filter((keyword) => typeof keyword === 'string');
}

function keywordStart(source: Source, node: Node, keywords: readonly string[]): number {
  const decorators = 'decorators' in node ? node.decorators : undefined;
  const from = decorators?.at(-1)?.end ?? node.start;
  const found = keywords
    .map((keyword) => source.text.indexOf(keyword, from))
    .filter((at) => at !== -1);
  return found.length === 0 ? node.start : Math.min(...found);
}
