import type { Node } from 'web-tree-sitter';
import type { PythonDraft, Scope } from './python-draft.js';

/**
 * Python imports. `import a.b, c as d` gives one import per module (`a.b`, `c`);
 * `from ..pkg import x, y` gives one import of `..pkg` (relative dots kept as written).
 * `from __future__ import …` is a compiler directive, not a dependency, and is skipped (the
 * grammar gives it its own node type). Imports under `if TYPE_CHECKING:` are type-only.
 * Python has no re-export syntax: `reexport` is always false.
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
): void {
  const { facts } = draft;
  facts.addImport(
    { specifier, typeOnly: flags.typeOnly, reexport: false, dynamic: flags.dynamic },
    at,
  );
  const topLevelPackage = specifier.split('.')[0] ?? '';
  if (DI_LIBRARIES.has(topLevelPackage)) facts.addDiContainer(topLevelPackage, at);
  draft.importsSignals ||= importsSignals(specifier, topLevelPackage);
}

/** Reads an `import_statement` or an `import_from_statement`. */
export function readImportStatement(statement: Node, scope: Scope, draft: PythonDraft): void {
  const flags = { typeOnly: scope.typeCheckingOnly, dynamic: false };
  if (statement.type === 'import_from_statement') {
    const module = statement.childForFieldName('module_name');
    if (module !== null) recordImport(draft, writtenSpecifier(module), statement.startIndex, flags);
    return;
  }
  for (const name of statement.childrenForFieldName('name')) {
    const module = moduleOf(name);
    if (module !== null) recordImport(draft, writtenSpecifier(module), module.startIndex, flags);
  }
}
