import type { Node } from 'web-tree-sitter';
import type { ImportBinding } from '../../model/facts.js';
import type { PythonDraft, Scope } from './python-draft.js';

/**
 * Python imports. `import a.b, c as d` gives one import per module (`a.b`, `c`);
 * `from ..pkg import x, y` gives one import of `..pkg` (relative dots kept as written).
 * `from __future__ import …` is a compiler directive, not a dependency, and is skipped (the
 * grammar gives it its own node type). Imports under `if TYPE_CHECKING:` are type-only.
 * Python has no re-export syntax: `reexport` is always false.
 * Bindings: `import a.b` → {*, a} (the statement binds the top package), `import a.b as c` →
 * {*, c}, `from m import x as y` → {x, y}, `from m import *` → {*, *}; dynamic imports bind
 * nothing.
 * Importing Qt, blinker or Django's signals makes the file's `.connect(` calls event
 * subscriptions (python-calls.ts).
 */

/** Packages whose import means a dependency-injection container is in use. */
const DI_LIBRARIES = new Set([
  'injector',
  'dependency_injector',
  'punq',
  'lagom',
  'kink',
  'pinject',
  'inject',
  'dishka',
  'wireup',
]);

/** Signal libraries: with one imported, `x.connect(handler)` subscribes to a signal. */
const SIGNAL_LIBRARIES = new Set(['PyQt5', 'PyQt6', 'PySide2', 'PySide6', 'qtpy', 'blinker']);
const SIGNAL_MODULES = ['django.dispatch', 'django.db.models.signals', 'django.core.signals'];

function importsSignals(specifier: string, topLevelPackage: string): boolean {
  if (SIGNAL_LIBRARIES.has(topLevelPackage)) return true;
  return SIGNAL_MODULES.some(
    (module) => specifier === module || specifier.startsWith(`${module}.`),
  );
}

function moduleOf(name: Node): Node | null {
  return name.type === 'aliased_import' ? name.childForFieldName('name') : name;
}

function writtenSpecifier(node: Node): string {
  return node.text.replace(/\s+/g, '');
}

/** Records an import (static, or dynamic with a literal name) and the DI container it names. */
export function recordImport(
  draft: PythonDraft,
  specifier: string,
  at: number,
  flags: { readonly typeOnly: boolean; readonly dynamic: boolean },
  bindings: readonly ImportBinding[] = [],
): void {
  const { facts } = draft;
  const { typeOnly, dynamic } = flags;
  facts.addImport({ specifier, typeOnly, reexport: false, dynamic, bindings }, at);
  const topLevelPackage = specifier.split('.')[0] ?? '';
  if (DI_LIBRARIES.has(topLevelPackage)) facts.addDiContainer(topLevelPackage, at);
  draft.importsSignals ||= importsSignals(specifier, topLevelPackage);
}

/** Reads an `import_statement` or an `import_from_statement`. */
export function readImportStatement(statement: Node, scope: Scope, draft: PythonDraft): void {
  const flags = { typeOnly: scope.typeCheckingOnly, dynamic: false };
  if (statement.type === 'import_from_statement') {
    const module = statement.childForFieldName('module_name');
    if (module === null) return;
    const bindings = fromImportBindings(statement);
    recordImport(draft, writtenSpecifier(module), statement.startIndex, flags, bindings);
    return;
  }
  for (const name of statement.childrenForFieldName('name')) {
    const module = moduleOf(name);
    if (module === null) continue;
    const specifier = writtenSpecifier(module);
    const alias = name.type === 'aliased_import' ? name.childForFieldName('alias') : null;
    // `import a.b` binds the top package `a`; `import a.b as c` binds the module as `c`.
    const local = alias?.text ?? specifier.split('.')[0] ?? specifier;
    recordImport(draft, specifier, module.startIndex, flags, [{ imported: '*', local }]);
  }
}

/** `from m import x as y, z` → {x, y}, {z, z}; `from m import *` → {*, *}. */
function fromImportBindings(statement: Node): ImportBinding[] {
  if (statement.namedChildren.some((child) => child.type === 'wildcard_import')) {
    return [{ imported: '*', local: '*' }];
  }
  return statement.childrenForFieldName('name').flatMap((name) => {
    const imported = moduleOf(name);
    if (imported === null) return [];
    const alias = name.type === 'aliased_import' ? name.childForFieldName('alias') : null;
    const importedName = writtenSpecifier(imported);
    return [{ imported: importedName, local: alias?.text ?? importedName }];
  });
}
