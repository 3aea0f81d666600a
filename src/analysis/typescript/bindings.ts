import type * as ts from 'typescript';
import type { ImportBinding } from '../../model/facts.js';
import { typescript } from '../typescript-runtime.js';
import { parentBeyondParentheses, propertyName, type Source, textOf } from './syntax.js';

/**
 * The names TS/JS imports bind (ImportBinding). String names (`import { 'a-b' as c }`) lose
 * their quotes, as export names do.
 */

const ALL = '*';

/** `import d, * as ns from`, `import { a as b } from`. */
export function importClauseBindings(
  source: Source,
  clause: ts.ImportClause | undefined,
): ImportBinding[] {
  if (clause === undefined) return [];
  const bindings: ImportBinding[] = [];
  if (clause.name !== undefined) {
    bindings.push({ imported: 'default', local: textOf(source, clause.name) });
  }
  const named = clause.namedBindings;
  if (named !== undefined && typescript.isNamespaceImport(named)) {
    bindings.push({ imported: ALL, local: textOf(source, named.name) });
  } else if (named !== undefined) {
    for (const element of named.elements) {
      const local = textOf(source, element.name);
      const imported =
        element.propertyName === undefined ? local : nameOf(source, element.propertyName);
      bindings.push({ imported, local });
    }
  }
  return bindings;
}

/** `export { a as b } from` → {a, b}; `export * as ns from` → {*, ns}; `export * from` → {*, *}. */
export function reexportBindings(source: Source, node: ts.ExportDeclaration): ImportBinding[] {
  const clause = node.exportClause;
  if (clause === undefined) return [{ imported: ALL, local: ALL }];
  if (typescript.isNamespaceExport(clause))
    return [{ imported: ALL, local: nameOf(source, clause.name) }];
  return clause.elements.map((element) => {
    const local = nameOf(source, element.name);
    const imported =
      element.propertyName === undefined ? local : nameOf(source, element.propertyName);
    return { imported, local };
  });
}

/**
 * What `require('m')` binds: only as a declaration's initializer, optionally through one
 * property access (`require('m').E`), parentheses looked through at each step.
 */
export function requireBindings(source: Source, call: ts.Node): ImportBinding[] {
  let holder = parentBeyondParentheses(call);
  let imported = ALL;
  // A call can only be the object of a property access (the name is an identifier).
  if (typescript.isPropertyAccessExpression(holder)) {
    if (!typescript.isIdentifier(holder.name)) return [];
    imported = textOf(source, holder.name);
    holder = parentBeyondParentheses(holder);
  }
  // A call can only be a declaration's initializer (the name and type hold no calls).
  if (!typescript.isVariableDeclaration(holder)) return [];
  const { name } = holder;
  if (typescript.isIdentifier(name)) return [{ imported, local: textOf(source, name) }];
  if (!typescript.isObjectBindingPattern(name) || imported !== ALL) return [];
  return name.elements.flatMap((element) => {
    const binding = patternBinding(source, element);
    return binding === null ? [] : [binding];
  });
}

/** One element of `const { a, b: c, d = 1 } = require(…)`; null for what binds no name. */
function patternBinding(source: Source, element: ts.BindingElement): ImportBinding | null {
  if (element.dotDotDotToken !== undefined || !typescript.isIdentifier(element.name)) return null;
  const local = textOf(source, element.name);
  const key = element.propertyName;
  if (key === undefined) return { imported: local, local };
  return typescript.isComputedPropertyName(key) ? null : { imported: nameOf(source, key), local };
}

/** An identifier as written, a string name without its quotes. */
function nameOf(source: Source, name: ts.Node): string {
  return propertyName(source, name) ?? textOf(source, name);
}
