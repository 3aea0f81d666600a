import type { Node } from 'web-tree-sitter';
import type { ImportBinding, ReflectionKind } from '../../model/facts.js';
import { extendDunderAll } from './python-bindings.js';
import {
  type PythonDraft,
  positionalArguments,
  type Scope,
  stringLiteralValue,
} from './python-draft.js';
import { readMutatingCall } from './python-state.js';
import { dottedName } from './syntax-tree.js';

/**
 * What a Python call tells: the callee name for its function's `calls`, the callee as a chain
 * of names for the file's `qualifiedCalls` (`os.path.join`), and the calls that are
 * reflection, dynamic imports or event subscriptions.
 *
 * Reflection: `eval`/`exec` → `eval`; `getattr`/`setattr`/`delattr` with a name that is not a
 * string literal → `getattr` (with a literal it is plain attribute access); `__import__` →
 * `dunder-import` (and, with a literal name, also a dynamic import);
 * `importlib.import_module(name)` → a dynamic import when `name` is a literal, else reflection
 * `dynamic-import`.
 *
 * Event subscriptions: `.on(`, `.once(`, `.subscribe(`, `.add_listener(`, `.addListener(`,
 * `.add_event_listener(`, `.addEventListener(`; the event is the first argument when it is a
 * string. `.connect(` subscribes to a signal in Qt, blinker and Django, but the syntax cannot
 * tell `button.clicked.connect(self.on_click)` from `self.sock.connect(self.address)` (every
 * `.connect(` of the standard library is a socket's): it counts only in files that import one of
 * those signal libraries (the imports below), with a null event (the signal is the receiver).
 */

const EVENT_METHODS = new Set([
  'on',
  'once',
  'subscribe',
  'add_listener',
  'addListener',
  'add_event_listener',
  'addEventListener',
]);
const ATTRIBUTE_REFLECTION = new Set(['getattr', 'setattr', 'delattr']);

/** `f()` → `f`; `a.b.c()` → `c`; calls of calls, subscripts and the like have no name. */
function calleeNameNode(callee: Node): Node | null {
  if (callee.type === 'identifier') return callee;
  if (callee.type === 'attribute') return callee.childForFieldName('attribute');
  return null;
}

function readDynamicImport(
  call: Node,
  kind: 'import-module' | 'dunder-import',
  scope: Scope,
  draft: PythonDraft,
): void {
  const at = call.startIndex;
  const specifier = stringLiteralValue(positionalArguments(call)[0]);
  if (kind === 'dunder-import') draft.facts.addReflection('dunder-import', at);
  if (specifier !== null) {
    recordImport(draft, specifier, at, {
      typeOnly: scope.typeCheckingOnly,
      dynamic: true,
      deferred: scope.fn !== undefined,
    });
  } else if (kind === 'import-module') {
    draft.facts.addReflection('dynamic-import', at);
  }
}

function readBuiltinCall(name: string, call: Node, scope: Scope, draft: PythonDraft): void {
  const at = call.startIndex;
  if (name === 'eval' || name === 'exec') draft.facts.addReflection('eval', at);
  else if (ATTRIBUTE_REFLECTION.has(name)) {
    const [owner, attribute] = positionalArguments(call);
    const kind = builtinReflection(owner, attribute);
    if (stringLiteralValue(attribute) === null || kind === 'eval') {
      draft.facts.addReflection(kind ?? 'getattr', at);
    }
  } else if (name === '__import__') readDynamicImport(call, 'dunder-import', scope, draft);
  else if (name === 'import_module') readDynamicImport(call, 'import-module', scope, draft);
}

/** The builtins' namespace as code reaches it: `__builtins__`, `builtins.__dict__`, `vars(builtins)`. */
const BUILTINS = /^(?:(?:__builtins__|builtins)(?:\.__dict__)?|vars\((?:__builtins__|builtins)\))$/;

/** A builtin picked by a name that is not written out, or is eval's or exec's, may be eval. */
function builtinReflection(owner: Node | undefined, key: Node | null | undefined): 'eval' | null {
  if (!BUILTINS.test(owner?.text.replace(/\s/g, '') ?? '')) return null;
  const name = stringLiteralValue(key);
  return name === null || name === 'eval' || name === 'exec' ? 'eval' : null;
}

/** `__builtins__.__dict__['ex' + 'ec']`: see builtinReflection. */
export function readSubscript(node: Node, scope: Scope, draft: PythonDraft): void {
  const value = node.childForFieldName('value') ?? undefined;
  const key = node.childForFieldName('subscript');
  if (builtinReflection(value, key) !== null) draft.facts.addReflection('eval', node.startIndex);
  if (value?.text.replace(/\s/g, '') !== 'sys.modules') return;
  // `sys.modules['subprocess']`: a module reached without an import statement.
  const name = stringLiteralValue(key);
  if (name === null) draft.facts.addReflection('dynamic-import', node.startIndex);
  else {
    recordImport(draft, name, node.startIndex, {
      typeOnly: scope.typeCheckingOnly,
      dynamic: true,
      deferred: scope.fn !== undefined,
    });
  }
}

function readMethodCall(
  callee: Node,
  method: string,
  call: Node,
  scope: Scope,
  draft: PythonDraft,
): void {
  if (method === 'import_module' || method === '__import__') {
    readDynamicImport(
      call,
      method === '__import__' ? 'dunder-import' : 'import-module',
      scope,
      draft,
    );
    return;
  }
  const receiver = callee.childForFieldName('object');
  // `builtins.exec(s)`, `globals()['__builtins__'].eval(s)`; pandas' `frame.eval` is not eval.
  if ((method === 'eval' || method === 'exec') && receiver?.text.includes('builtins') === true) {
    draft.facts.addReflection('eval', call.startIndex);
  }
  if (receiver?.text === '__all__' && (method === 'extend' || method === 'append')) {
    if (scope.moduleLevel) extendDunderAll(draft, call.childForFieldName('arguments'));
    return;
  }
  readMutatingCall(callee, method, scope, draft);
  if (method === 'connect') draft.connectCalls.push(call.startIndex);
  else if (EVENT_METHODS.has(method)) {
    const event = stringLiteralValue(positionalArguments(call)[0]);
    draft.facts.addEventSubscription(method, event, call.startIndex);
  }
}

/**
 * The builtins whose plain calls readCall reads, with what naming them otherwise is;
 * `builtins.__import__(…)` is `__import__(…)`.
 */
const LOADERS = new Set(['__import__', 'import_module', 'eval', 'exec']);

/**
 * A loader or eval named other than in a call of it (`imp = __import__`, `e = eval`,
 * `run(importlib.import_module)`) loads a module the analysis cannot name, or runs code, wherever
 * it goes: it is reflection where it is named, as a call of it is. An import of it (`from
 * importlib import import_module`), a definition of the name, and another object's `eval`
 * (pandas' `frame.eval`) are no use of it.
 */
export function readLoaderReference(id: Node, draft: PythonDraft): void {
  const length = id.endIndex - id.startIndex;
  if ((length !== 4 && length !== 10 && length !== 13) || !LOADERS.has(id.text)) return;
  const kind = RENAMED_REFLECTION.get(id.text) === 'eval' ? 'eval' : 'dunder-import';
  const parent = id.parent;
  const attribute = parent?.type === 'attribute' && !parent.childForFieldName('object')?.equals(id);
  if (kind === 'eval' && attribute && !parent.text.includes('builtins')) return;
  const callee = parent?.type === 'attribute' ? parent : id;
  const holder = callee.parent;
  if (holder?.type === 'call' && holder.childForFieldName('function')?.equals(callee)) return;
  if (parent?.type === 'function_definition' || parent?.type === 'dotted_name') return;
  if (parent?.type === 'aliased_import') return;
  if (parent?.type === 'keyword_argument' && parent.childForFieldName('name')?.equals(id)) return;
  draft.facts.addReflection(kind, id.startIndex);
}

export function readCall(call: Node, scope: Scope, draft: PythonDraft): void {
  const callee = call.childForFieldName('function');
  if (callee === null) return;
  const path = dottedName(callee, 'attribute', 'object', 'attribute');
  if (path !== null) draft.facts.addQualifiedCall(path);
  const nameNode = calleeNameNode(callee);
  if (nameNode === null) return;
  const name = nameNode.text;
  scope.fn?.calls.push({ name, at: nameNode.startIndex });
  if (PATH_LOADERS.has(name)) draft.facts.addReflection('dunder-import', call.startIndex);
  if (callee.type === 'identifier') readBuiltinCall(name, call, scope, draft);
  else readMethodCall(callee, name, call, scope, draft);
}

/**
 * importlib's loading of a source file by its path (`spec_from_file_location` then
 * `loader.exec_module`, `SourceFileLoader(…).load_module()`): a module named at run time, as
 * `__import__` of a computed name is (and priced as runpy's running of a path is).
 */
const PATH_LOADERS = new Set([
  'spec_from_file_location',
  'exec_module',
  'load_module',
  'SourceFileLoader',
  'SourcelessFileLoader',
  'ExtensionFileLoader',
]);

/**
 * Python imports. `import a.b, c as d` gives one import per module (`a.b`, `c`);
 * `from ..pkg import x, y` gives one import of `..pkg` (relative dots kept as written).
 * `from __future__ import …` is a compiler directive, not a dependency, and is skipped (the
 * grammar gives it its own node type). Imports under `if TYPE_CHECKING:` are type-only; imports
 * inside a function are `deferred`.
 * Python has no re-export syntax: `reexport` is always false.
 * Bindings: `import a.b` → {*, a} (the statement binds the top package), `import a.b as c` →
 * {*, c}, `from m import x as y` → {x, y}, `from m import *` → {*, *}; dynamic imports bind
 * nothing.
 * Importing Qt, blinker or Django's signals makes the file's `.connect(` calls event
 * subscriptions (readCall above).
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
  flags: { readonly typeOnly: boolean; readonly dynamic: boolean; readonly deferred: boolean },
  bindings: readonly ImportBinding[] = [],
): void {
  const { facts } = draft;
  const { typeOnly, dynamic, deferred } = flags;
  const fact = { specifier, typeOnly, reexport: false, dynamic, bindings };
  facts.addImport(deferred ? { ...fact, deferred } : fact, at);
  const topLevelPackage = specifier.split('.')[0] ?? '';
  if (DI_LIBRARIES.has(topLevelPackage)) facts.addDiContainer(topLevelPackage, at);
  draft.importsSignals ||= importsSignals(specifier, topLevelPackage);
}

const RENAMED_REFLECTION = new Map<string, ReflectionKind>([
  ['import_module', 'dynamic-import'],
  ['__import__', 'dynamic-import'],
  ['eval', 'eval'],
  ['exec', 'eval'],
]);

/** Reads an `import_statement` or an `import_from_statement`. */
export function readImportStatement(statement: Node, scope: Scope, draft: PythonDraft): void {
  // Inside a function the import runs when the function is called, not when the file loads.
  const flags = {
    typeOnly: scope.typeCheckingOnly,
    dynamic: false,
    deferred: scope.fn !== undefined,
  };
  if (statement.type === 'import_from_statement') {
    const module = statement.childForFieldName('module_name');
    if (module === null) return;
    const bindings = fromImportBindings(statement);
    const specifier = writtenSpecifier(module);
    recordImport(draft, specifier, statement.startIndex, flags, bindings);
    // Under another name, the calls readBuiltinCall knows by name go unseen: the import is them.
    for (const { imported, local } of specifier === 'importlib' || specifier === 'builtins'
      ? bindings
      : []) {
      const kind = RENAMED_REFLECTION.get(imported);
      if (kind !== undefined && local !== imported)
        draft.facts.addReflection(kind, statement.startIndex);
    }
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
