import type { Node } from 'web-tree-sitter';
import { type GoDraft, goStringValue, type Scope } from './go-draft.js';

/**
 * Go imports and calls.
 *
 * Imports: one per import spec, the path as written; Go has no type-only, re-exported or
 * dynamic imports. Each binds the package (`*`) under its alias (`_` and `.` as written) or
 * else the path's last segment: the package's own name is in its `package` clause, which the
 * importing file cannot see, and by convention the two agree (not for `…/v2` or `yaml.v3`). DI containers: imports of dig, fx, wire or samber/do (and their subpackages).
 *
 * Calls: `f()` → `f`, `pkg.F()` / `x.m()` → `F` / `m`; conversions written like calls
 * (`int(x)`) cannot be told from calls without types and count as calls; callees that are
 * expressions (`fs[i]()`, `func(){}()`) are skipped. A callee that is a chain of names is also
 * a qualified call (`exec.Command`), at package level too.
 * Reflection: every call of a function of package `reflect` (under whatever name it is imported)
 * → `reflect`; `plugin.Open` (code loaded at run time) → `dynamic-import`. `unsafe` is not
 * reflection and is not reported.
 * Event subscriptions: `.On(`, `.Once(`, `.Subscribe(`, `.SubscribeAsync(`, `.SubscribeOnce(`,
 * `.AddListener(`, `.AddEventListener(`; the event is the first argument when it is a string.
 */

const DI_LIBRARIES = [
  'go.uber.org/dig',
  'go.uber.org/fx',
  'github.com/google/wire',
  'github.com/samber/do',
];
const EVENT_METHODS = new Set([
  'On',
  'Once',
  'Subscribe',
  'SubscribeAsync',
  'SubscribeOnce',
  'AddListener',
  'AddEventListener',
]);
/** Packages whose calls are facts, by import path. */
const WATCHED_PACKAGES = new Set(['reflect', 'plugin']);

export function readImportSpec(spec: Node, draft: GoDraft): void {
  const path = goStringValue(spec.childForFieldName('path'));
  if (path === null) return;
  const at = spec.startIndex;
  const alias = spec.childForFieldName('name');
  const local = alias?.text ?? path.slice(path.lastIndexOf('/') + 1);
  draft.facts.addImport(
    {
      specifier: path,
      typeOnly: false,
      reexport: false,
      dynamic: false,
      bindings: [{ imported: '*', local }],
    },
    at,
  );
  if (WATCHED_PACKAGES.has(path)) {
    if (alias === null) draft.importedPackages.set(path, path);
    else if (alias.type === 'package_identifier') draft.importedPackages.set(alias.text, path);
  }
  const library = DI_LIBRARIES.find((known) => path === known || path.startsWith(`${known}/`));
  if (library !== undefined) draft.facts.addDiContainer(library, at);
}

function firstArgument(call: Node): Node | undefined {
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  return args.find((argument) => argument.type !== 'comment');
}

/** `a.b.c` for a callee that is a chain of names (FileFacts.qualifiedCalls), else null. */
function dottedName(node: Node): string | null {
  if (node.type === 'identifier') return node.text;
  if (node.type !== 'selector_expression') return null;
  const operand = node.childForFieldName('operand');
  const field = node.childForFieldName('field');
  const head = operand === null ? null : dottedName(operand);
  return head === null || field === null ? null : `${head}.${field.text}`;
}

export function readCall(call: Node, scope: Scope, draft: GoDraft): void {
  const callee = call.childForFieldName('function');
  const path = callee === null ? null : dottedName(callee);
  if (path !== null) draft.facts.addQualifiedCall(path);
  if (callee?.type === 'identifier') {
    scope.fn?.calls.push({ name: callee.text, at: callee.startIndex });
    return;
  }
  if (callee?.type !== 'selector_expression') return;
  const field = callee.childForFieldName('field');
  if (field === null) return;
  const at = call.startIndex;
  scope.fn?.calls.push({ name: field.text, at: field.startIndex });
  const operand = callee.childForFieldName('operand');
  const pkg = operand?.type === 'identifier' ? draft.importedPackages.get(operand.text) : undefined;
  if (pkg === 'reflect') draft.facts.addReflection('reflect', at);
  else if (pkg === 'plugin' && field.text === 'Open')
    draft.facts.addReflection('dynamic-import', at);
  if (EVENT_METHODS.has(field.text)) {
    draft.facts.addEventSubscription(field.text, goStringValue(firstArgument(call)), at);
  }
}
