import type { Node } from 'web-tree-sitter';
import type { ImportBinding } from '../../model/facts.js';
import {
  namedChildren,
  parentBeyondParentheses,
  propertyName,
  type Source,
  textOf,
} from './typescript-syntax.js';

/**
 * The names TS/JS imports bind (ImportBinding), read from tree-sitter's tree; the TypeScript
 * extractor reads the same from its own tree (typescript/bindings.ts). String names
 * (`import { 'a-b' as c }`) lose their quotes, as export names do.
 */

const ALL = '*';

/** `import d, * as ns from`, `import { a as b } from`, `import x = require(…)`. */
export function importBindings(source: Source, statement: Node): ImportBinding[] {
  const bindings: ImportBinding[] = [];
  for (const child of namedChildren(statement)) {
    if (child.type === 'import_require_clause') {
      const name = namedChildren(child).find((part) => part.type === 'identifier');
      if (name !== undefined) bindings.push({ imported: ALL, local: textOf(source, name) });
    } else if (child.type === 'import_clause') {
      bindings.push(...clauseBindings(source, child));
    }
  }
  return bindings;
}

function clauseBindings(source: Source, clause: Node): ImportBinding[] {
  return namedChildren(clause).flatMap((part): ImportBinding[] => {
    switch (part.type) {
      case 'identifier':
        return [{ imported: 'default', local: textOf(source, part) }];
      case 'namespace_import': {
        const name = namedChildren(part)[0];
        return name === undefined ? [] : [{ imported: ALL, local: textOf(source, name) }];
      }
      case 'named_imports':
        return namedChildren(part).flatMap((specifier) => {
          const imported = propertyName(source, specifier.childForFieldName('name'));
          if (imported === null) return [];
          const alias = specifier.childForFieldName('alias');
          return [{ imported, local: alias === null ? imported : textOf(source, alias) }];
        });
      default:
        return [];
    }
  });
}

/** `export { a as b } from` → {a, b}; `export * as ns from` → {*, ns}; `export * from` → {*, *}. */
export function reexportBindings(source: Source, statement: Node): ImportBinding[] {
  const namespace = namedChildren(statement).find((child) => child.type === 'namespace_export');
  if (namespace !== undefined) {
    const local = propertyName(source, namedChildren(namespace)[0] ?? null);
    return local === null ? [] : [{ imported: ALL, local }];
  }
  const clause = namedChildren(statement).find((child) => child.type === 'export_clause');
  if (clause === undefined) return [{ imported: ALL, local: ALL }];
  return namedChildren(clause).flatMap((specifier) => {
    const imported = propertyName(source, specifier.childForFieldName('name'));
    if (imported === null) return [];
    const local = propertyName(source, specifier.childForFieldName('alias')) ?? imported;
    return [{ imported, local }];
  });
}

/**
 * What `require('m')` binds: only as a declaration's initializer, optionally through one
 * property access (`require('m').E`), parentheses looked through at each step.
 */
export function requireBindings(source: Source, call: Node): ImportBinding[] {
  let { parent, child } = parentBeyondParentheses(call);
  let imported = ALL;
  if (parent?.type === 'member_expression' && isField(parent, 'object', child)) {
    const property = parent.childForFieldName('property');
    if (property?.type !== 'property_identifier') return [];
    imported = textOf(source, property);
    ({ parent, child } = parentBeyondParentheses(parent));
  }
  if (parent?.type !== 'variable_declarator' || !isField(parent, 'value', child)) return [];
  const name = parent.childForFieldName('name');
  if (name?.type === 'identifier') return [{ imported, local: textOf(source, name) }];
  if (name?.type !== 'object_pattern' || imported !== ALL) return [];
  return namedChildren(name).flatMap((property) => {
    const binding = patternBinding(source, property);
    return binding === null ? [] : [binding];
  });
}

function isField(parent: Node, field: string, child: Node): boolean {
  return parent.childForFieldName(field)?.id === child.id;
}

/** One property of `const { a, b: c, d = 1 } = require(…)`; null for what binds no name. */
function patternBinding(source: Source, property: Node): ImportBinding | null {
  switch (property.type) {
    case 'shorthand_property_identifier_pattern': {
      const name = textOf(source, property);
      return { imported: name, local: name };
    }
    case 'object_assignment_pattern': {
      const left = property.childForFieldName('left');
      return left === null ? null : patternBinding(source, left);
    }
    case 'pair_pattern': {
      const key = property.childForFieldName('key');
      if (key === null || key.type === 'computed_property_name') return null;
      const imported = propertyName(source, key);
      const local = identifierOf(property.childForFieldName('value'));
      return imported === null || local === null
        ? null
        : { imported, local: textOf(source, local) };
    }
    default:
      return null;
  }
}

/** `c` in `b: c` or `b: c = 1`; null for a nested pattern. */
function identifierOf(value: Node | null): Node | null {
  if (value?.type === 'identifier') return value;
  if (value?.type !== 'assignment_pattern') return null;
  const left = value.childForFieldName('left');
  return left?.type === 'identifier' ? left : null;
}
