import type { Node } from 'web-tree-sitter';
import type { FunctionLocals, Mutation, PythonDraft, Scope } from './python-draft.js';
import { lastSegment } from './python-draft.js';

/**
 * Python's module-level mutable state, as python-bindings.ts reports it: a module-level name
 * bound to a mutable value that a function or method mutates, or a name a function declares
 * `global` (which rebinds it).
 *
 * Mutable values: list, dict and set displays and comprehensions, calls of the mutable
 * containers of the standard library (`list()`, `defaultdict(…)`, `deque()`…) and instances of
 * classes (a call of a capitalised name: `Settings()`). A function, a lambda, a string or
 * number, `re.compile(…)`, `logging.getLogger(…)`, another name (`parse = json.loads`) are not.
 *
 * Mutations, inside a function or method only: a call of a container's mutating method on the
 * name or something under it (`registry.append(x)`, `handlers[k].append(x)`), an assignment or
 * augmented assignment to an item or attribute under it (`cache[k] = v`, `settings.debug =
 * True`), a `del` of one. Code at module level runs once, at import: filling a table there
 * (`defaults['b'] = 2`) builds a constant, and a second assignment there (`try: import simplejson
 * as json` / `except ImportError: json = None`) binds the name once whichever branch runs. A
 * function's parameter or local variable of the same name (assigned in it without `global`)
 * is not the module's.
 */

const MUTABLE_DISPLAYS = new Set([
  'list',
  'dictionary',
  'set',
  'list_comprehension',
  'dictionary_comprehension',
  'set_comprehension',
]);
const MUTABLE_FACTORIES = new Set([
  'list',
  'dict',
  'set',
  'bytearray',
  'defaultdict',
  'OrderedDict',
  'Counter',
  'ChainMap',
  'deque',
  'WeakKeyDictionary',
  'WeakValueDictionary',
  'WeakSet',
]);
const MUTATING_METHODS = new Set([
  'append',
  'extend',
  'insert',
  'remove',
  'pop',
  'popleft',
  'appendleft',
  'extendleft',
  'clear',
  'update',
  'setdefault',
  'popitem',
  'add',
  'discard',
  'difference_update',
  'intersection_update',
  'symmetric_difference_update',
  'sort',
  'reverse',
  'rotate',
]);
const PARAMETER_WRAPPERS = new Set([
  'typed_parameter',
  'default_parameter',
  'typed_default_parameter',
  'list_splat_pattern',
  'dictionary_splat_pattern',
]);

/** Whether a module-level value is a mutable one. */
export function isMutableValue(value: Node): boolean {
  if (MUTABLE_DISPLAYS.has(value.type)) return true;
  if (value.type !== 'call') return false;
  const callee = lastSegment(value.childForFieldName('function')?.text ?? '');
  return MUTABLE_FACTORIES.has(callee) || /^_*[A-Z]/.test(callee);
}

/** A new function's locals: its parameters to start with. */
export function functionLocals(parameters: Node | null): FunctionLocals {
  const bound = new Set<string>();
  for (const parameter of parameters?.namedChildren ?? []) {
    const name = parameterName(parameter);
    if (name !== null) bound.add(name);
  }
  return { bound, globals: new Set() };
}

function parameterName(parameter: Node): string | null {
  if (parameter.type === 'identifier') return parameter.text;
  if (!PARAMETER_WRAPPERS.has(parameter.type)) return null;
  const named = parameter.childForFieldName('name');
  if (named?.type === 'identifier') return named.text;
  const first = parameter.namedChildren.find((child) => child.type === 'identifier');
  return first?.text ?? null;
}

/** The identifier at the root of `a.b[c].d` (or `a` itself). */
function rootName(node: Node | null): string | null {
  let current = node;
  while (current?.type === 'attribute' || current?.type === 'subscript') {
    current = current.childForFieldName(current.type === 'attribute' ? 'object' : 'value');
  }
  return current?.type === 'identifier' ? current.text : null;
}

function mutate(name: string | null, scope: Scope, draft: PythonDraft): void {
  if (name !== null && scope.locals.length > 0) {
    draft.mutations.push({ name, within: scope.locals });
  }
}

/**
 * An assignment (plain or augmented) inside a function: a plain name becomes one of its
 * locals, an item or attribute under a name mutates that name.
 */
export function readFunctionAssignment(statement: Node, scope: Scope, draft: PythonDraft): void {
  const locals = scope.locals.at(-1);
  let current: Node | null = statement;
  while (current?.type === 'assignment' || current?.type === 'augmented_assignment') {
    for (const target of targetsOf(current.childForFieldName('left'))) {
      if (target.type === 'identifier') locals?.bound.add(target.text);
      else mutate(rootName(target), scope, draft);
    }
    current = current.childForFieldName('right');
  }
}

function targetsOf(left: Node | null): Node[] {
  if (left === null) return [];
  if (left.type === 'pattern_list' || left.type === 'tuple_pattern' || left.type === 'list_pattern')
    return left.namedChildren.flatMap(targetsOf);
  return left.type === 'list_splat_pattern' ? left.namedChildren : [left];
}

/** `del cache[k]` inside a function. */
export function readDelete(statement: Node, scope: Scope, draft: PythonDraft): void {
  const targets = statement.namedChildren.flatMap((child) =>
    child.type === 'expression_list' ? child.namedChildren : [child],
  );
  for (const target of targets) {
    if (target.type !== 'identifier') mutate(rootName(target), scope, draft);
  }
}

/** `registry.append(x)`: a mutating method called on a name or something under it. */
export function readMutatingCall(
  callee: Node,
  method: string,
  scope: Scope,
  draft: PythonDraft,
): void {
  if (MUTATING_METHODS.has(method))
    mutate(rootName(callee.childForFieldName('object')), scope, draft);
}

/** `for name in …` inside a function binds its targets there. */
export function readForTargets(statement: Node, scope: Scope): void {
  const locals = scope.locals.at(-1);
  for (const target of targetsOf(statement.childForFieldName('left'))) {
    if (target.type === 'identifier') locals?.bound.add(target.text);
  }
}

/** The module names some function or method mutates (the module's own, not a local's). */
export function mutatedNames(mutations: readonly Mutation[]): Set<string> {
  const names = new Set<string>();
  for (const { name, within } of mutations) {
    const local = within.some((locals) => locals.bound.has(name) && !locals.globals.has(name));
    if (!local) names.add(name);
  }
  return names;
}
