import type {
  BindingProperty,
  BindingRestElement,
  ExportAllDeclaration,
  ExportNamedDeclaration,
  ImportDeclaration,
} from 'oxc-parser';
import type { ImportBinding } from '../../model/facts.js';
import { beyondParentheses, nameOf, type Source, textOf } from './syntax.js';

/** The names TS/JS imports bind, by the rules written down in typescript/bindings.ts. */

const ALL = '*';

/** `import d, * as ns from`, `import { a as b } from`. */
export function importBindings(source: Source, node: ImportDeclaration): ImportBinding[] {
  return node.specifiers.map((specifier) => {
    const local = textOf(source, specifier.local);
    if (specifier.type === 'ImportDefaultSpecifier') return { imported: 'default', local };
    if (specifier.type === 'ImportNamespaceSpecifier') return { imported: ALL, local };
    return { imported: nameOf(source, specifier.imported), local };
  });
}

/** `export { a as b } from` → {a, b}; `export * as ns from` → {*, ns}; `export * from` → {*, *}. */
export function reexportBindings(
  source: Source,
  node: ExportNamedDeclaration | ExportAllDeclaration,
): ImportBinding[] {
  if (node.type === 'ExportAllDeclaration') {
    return [{ imported: ALL, local: node.exported === null ? ALL : nameOf(source, node.exported) }];
  }
  return node.specifiers.map((specifier) => ({
    imported: nameOf(source, specifier.local),
    local: nameOf(source, specifier.exported),
  }));
}

/**
 * What the `require('m')` being visited binds: only as a declaration's initializer, optionally
 * through one property access (`require('m').E`), parentheses looked through at each step.
 */
export function requireBindings(source: Source): ImportBinding[] {
  const { ancestors } = source;
  let at = beyondParentheses(ancestors, ancestors.length - 1);
  let holder = ancestors[at];
  let imported = ALL;
  // A call can only be the object of a property access (the name is an identifier).
  if (holder?.type === 'MemberExpression') {
    if (holder.computed || holder.property.type !== 'Identifier') return [];
    imported = textOf(source, holder.property);
    at = beyondParentheses(ancestors, at - 1);
    holder = ancestors[at];
  }
  // A call can only be a declaration's initializer (the name and type hold no calls).
  if (holder?.type !== 'VariableDeclarator') return [];
  const { id } = holder;
  if (id.type === 'Identifier') return [{ imported, local: textOf(source, id) }];
  if (id.type !== 'ObjectPattern' || imported !== ALL) return [];
  return id.properties.flatMap((property) => {
    const binding = patternBinding(source, property);
    return binding === null ? [] : [binding];
  });
}

/** One element of `const { a, b: c, d = 1 } = require(…)`; null for what binds no name. */
function patternBinding(
  source: Source,
  property: BindingProperty | BindingRestElement,
): ImportBinding | null {
  if (property.type === 'RestElement') return null;
  const value = property.value.type === 'AssignmentPattern' ? property.value.left : property.value;
  if (value.type !== 'Identifier') return null;
  const local = textOf(source, value);
  if (property.shorthand) return { imported: local, local };
  return property.computed ? null : { imported: nameOf(source, property.key), local };
}
