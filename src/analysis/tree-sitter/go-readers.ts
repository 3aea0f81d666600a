import type { Node } from 'web-tree-sitter';
import type { FactsCollector, FunctionDraft, FunctionHeader } from './facts-collector.js';
import type { TextRange } from './line-index.js';
import { ANONYMOUS, dottedName, rangeOf } from './syntax-tree.js';

/**
 * What each Go node adds to the facts: its declarations, imports and calls (the walk is in
 * go-facts.ts).
 */

/**
 * The Go extractor's working state: the shared FactsCollector plus what Go needs until the walk
 * ends. A struct's methods may be declared anywhere in the file, so they are counted by
 * receiver type name and matched to the structs at the end.
 */
export interface GoDraft {
  readonly facts: FactsCollector;
  readonly structs: { readonly name: string; readonly range: TextRange }[];
  readonly methodsByReceiver: Map<string, number>;
  /** Local package name → import path (`r "reflect"` → r → reflect), for reflection calls. */
  readonly importedPackages: Map<string, string>;
}

export interface Scope {
  /** The innermost function or function literal: it owns decision points and calls. */
  readonly fn: FunctionDraft | undefined;
  /** Outside every function: declarations here are the package's. */
  readonly packageLevel: boolean;
}

/** The content of a Go string literal (interpreted or raw) as written; null for anything else. */
function goStringValue(
  node: { readonly type: string; readonly text: string } | null | undefined,
): string | null {
  if (node?.type !== 'interpreted_string_literal' && node?.type !== 'raw_string_literal')
    return null;
  return node.text.slice(1, -1);
}

/** Exported: the name begins with an upper-case letter (the Go spec's rule, Unicode included). */
export function isExportedName(name: string): boolean {
  return /^\p{Lu}/u.test(name);
}

/**
 * Go declarations.
 *
 * Functions: `func f` is `f`; a method is `Receiver.m` by its receiver's type name (`*T`, `T[K]`
 * → `T`); a function literal is a `function` (Go writes it with `func`, like JavaScript's
 * function expressions) named after the variable, field or map key it is assigned to.
 * Parameters: each declared name (`a, b int` is two), an unnamed parameter counts one, `...`
 * one; the receiver and type parameters are not parameters.
 *
 * Types: a named struct type is a class; an interface type is an `interface` abstraction,
 * except a constraint (an interface with a `~T` or `A | B` type set can only constrain type
 * parameters: nothing implements it).
 *
 * Package-level `var`s are mutable state, except what gochecknoglobals also lets pass because
 * it never changes in practice: `_`, `//go:embed` variables, sentinel errors (`ErrX`/`errX` =
 * `errors.New(…)`/`fmt.Errorf(…)`) and `regexp.MustCompile(…)`.
 */

const CONSTANT_CONSTRUCTORS = new Set(['errors.New', 'fmt.Errorf']);

export function countParameters(list: Node | null): number {
  let count = 0;
  for (const parameter of list?.namedChildren ?? []) {
    if (parameter.type === 'parameter_declaration') {
      count += Math.max(1, parameter.childrenForFieldName('name').length);
    } else if (parameter.type === 'variadic_parameter_declaration') count += 1;
  }
  return count;
}

/** `(p *List[T])` → `List`. */
export function receiverTypeName(method: Node): string {
  const receiver = method.childForFieldName('receiver')?.namedChildren;
  let type = receiver
    ?.find((part) => part.type === 'parameter_declaration')
    ?.childForFieldName('type');
  while (type !== null && type !== undefined) {
    if (type.type === 'type_identifier') return type.text;
    type = type.type === 'generic_type' ? type.childForFieldName('type') : type.firstNamedChild;
  }
  return ANONYMOUS;
}

function assignedName(target: Node | undefined): string {
  if (target?.type === 'identifier') return target.text;
  if (target?.type === 'selector_expression')
    return target.childForFieldName('field')?.text ?? ANONYMOUS;
  return ANONYMOUS;
}

/** The name a function literal takes from where it stands. */
function literalName(literal: Node): string {
  const parent = literal.parent;
  if (parent?.type === 'expression_list') {
    const index = parent.namedChildren.findIndex((value) => value.id === literal.id);
    const holder = parent.parent;
    if (holder?.type === 'var_spec')
      return assignedName(holder.childrenForFieldName('name')[index]);
    if (holder?.type === 'short_var_declaration' || holder?.type === 'assignment_statement') {
      return assignedName(holder.childForFieldName('left')?.namedChildren[index]);
    }
  }
  const keyed = parent?.type === 'literal_element' ? parent.parent : null;
  if (keyed?.type === 'keyed_element' && keyed.childForFieldName('value')?.id === parent?.id) {
    const key = keyed.childForFieldName('key')?.firstNamedChild;
    if (key?.type === 'identifier' || key?.type === 'field_identifier') return key.text;
    return goStringValue(key) ?? ANONYMOUS;
  }
  return ANONYMOUS;
}

export function functionHeader(node: Node): FunctionHeader {
  const parameters = countParameters(node.childForFieldName('parameters'));
  const range = rangeOf(node);
  const declared = node.childForFieldName('name')?.text ?? ANONYMOUS;
  if (node.type === 'method_declaration') {
    return { name: `${receiverTypeName(node)}.${declared}`, kind: 'method', range, parameters };
  }
  const name = node.type === 'func_literal' ? literalName(node) : declared;
  return { name, kind: 'function', range, parameters };
}

function isTypeSet(element: Node): boolean {
  if (element.type !== 'type_elem') return false;
  const terms = element.namedChildren.filter((term) => term.type !== 'comment');
  return terms.length > 1 || terms.some((term) => term.type === 'negated_type');
}

/** A `type` spec or alias: structs are classes, interfaces abstractions, exported names exports. */
export function readTypeSpec(spec: Node, scope: Scope, draft: GoDraft): void {
  const name = spec.childForFieldName('name');
  if (name === null) return;
  if (scope.packageLevel && isExportedName(name.text))
    draft.facts.addExport(name.text, false, name.startIndex);
  if (spec.type !== 'type_spec') return;
  const type = spec.childForFieldName('type');
  if (type?.type === 'struct_type') draft.structs.push({ name: name.text, range: rangeOf(spec) });
  // An interface with a type set (`~int | float64`) is a generic constraint, not an abstraction.
  if (type?.type === 'interface_type' && !type.namedChildren.some(isTypeSet)) {
    draft.facts.addAbstraction(name.text, 'interface', rangeOf(spec));
  }
}

function isEmbedded(spec: Node): boolean {
  const declaration = spec.parent;
  const before =
    spec.previousNamedSibling ??
    (declaration?.type === 'var_declaration' ? declaration.previousNamedSibling : null);
  return before?.type === 'comment' && before.text.startsWith('//go:embed');
}

function neverChanges(name: string, value: Node | undefined): boolean {
  if (value?.type !== 'call_expression') return false;
  const callee = value.childForFieldName('function')?.text ?? '';
  if (callee === 'regexp.MustCompile') return true;
  return CONSTANT_CONSTRUCTORS.has(callee) && /^[eE]rr/.test(name);
}

/** A package-level `var` or `const` spec: its exported names, and for `var` its mutable state. */
export function readPackageValueSpec(spec: Node, draft: GoDraft): void {
  const values = spec.childForFieldName('value')?.namedChildren ?? [];
  const embedded = spec.type === 'var_spec' && isEmbedded(spec);
  spec.childrenForFieldName('name').forEach((name, index) => {
    if (isExportedName(name.text)) draft.facts.addExport(name.text, false, name.startIndex);
    if (spec.type !== 'var_spec' || name.text === '_' || embedded) return;
    if (!neverChanges(name.text, values[index]))
      draft.facts.addMutableState(name.text, name.startIndex);
  });
}

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

/**
 * `//go:linkname local importpath.name` binds a function to another package's symbol, exported
 * or not, with no import and no call naming it: read as an import of that package, and as
 * reflection (`reflect`), the other way Go reaches code no call names.
 */
export function readLinkname(comment: Node, draft: GoDraft): void {
  const target = /^\/\/go:linkname\s+\S+\s+(\S+)\.[^./\s]+\s*$/.exec(comment.text)?.[1];
  if (target === undefined) return;
  const fact = {
    specifier: target,
    typeOnly: false,
    reexport: false,
    dynamic: false,
    bindings: [],
  };
  draft.facts.addImport(fact, comment.startIndex);
  draft.facts.addReflection('reflect', comment.startIndex);
}

function firstArgument(call: Node): Node | undefined {
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  return args.find((argument) => argument.type !== 'comment');
}

export function readCall(call: Node, scope: Scope, draft: GoDraft): void {
  const callee = call.childForFieldName('function');
  const path =
    callee === null ? null : dottedName(callee, 'selector_expression', 'operand', 'field');
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
