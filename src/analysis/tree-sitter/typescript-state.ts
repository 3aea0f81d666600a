import type { Node } from 'web-tree-sitter';
import { declaredNames } from './typescript-modules.js';
import type { Source } from './typescript-syntax.js';

/**
 * Module-level mutable state: each name bound by a `let` or `var` statement directly at the top
 * of the file (`export let` included), at the line of the name. Not: `const`, `declare let`
 * (no storage), `let`/`var` in a top-level block or `for` header, class static fields.
 */
export function recordTopLevelState(source: Source, statement: Node): void {
  const declaration =
    statement.type === 'export_statement' ? statement.childForFieldName('declaration') : statement;
  if (declaration === null || !isMutable(declaration)) return;
  for (const name of declaredNames(declaration)) {
    source.facts.addMutableState(
      source.text.slice(name.startIndex, name.endIndex),
      name.startIndex,
    );
  }
}

function isMutable(declaration: Node): boolean {
  if (declaration.type === 'variable_declaration') return true;
  return (
    declaration.type === 'lexical_declaration' &&
    declaration.childForFieldName('kind')?.type === 'let'
  );
}
