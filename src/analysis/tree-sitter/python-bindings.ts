import type { Node } from 'web-tree-sitter';
import type { NameAt, PythonClassDraft, PythonDraft, Scope } from './python-draft.js';
import { lastSegment, stringLiteralValue } from './python-draft.js';
import { isMutableValue, mutatedNames } from './python-state.js';

/**
 * Names bound at module level (anywhere outside functions and classes, `if`/`try` blocks
 * included) and in class bodies.
 *
 * Exports: the string literals of `__all__` (`=`, `+=`, `.extend(…)`, `.append(…)`) when the
 * module defines it; otherwise every module-level `def`, `class`, assignment target and type
 * alias whose name does not start with `_`. Imported names are not exports.
 *
 * Mutable state (python-state.ts): module-level names bound to a mutable value that a function
 * or method mutates, except dunders (`__all__`), `_` and type-only code (`if TYPE_CHECKING:`,
 * `X: TypeAlias = …`); plus every name a function declares `global`, which it rebinds at run
 * time whatever its value. A constant (an ALL_CAPS name, or any value no function changes), a
 * function alias, a compiled pattern or a logger is not state. One fact per name, at its first
 * binding's line.
 */

const DUNDER = /^__\w+__$/;
const TYPE_FACTORIES = new Set([
  'TypeVar',
  'ParamSpec',
  'TypeVarTuple',
  'NewType',
  'NamedTuple',
  'namedtuple',
  'TypedDict',
]);
const PATTERNS = new Set(['pattern_list', 'tuple_pattern', 'list_pattern', 'list_splat_pattern']);
const SEQUENCES = new Set(['expression_list', 'tuple', 'list']);
const LISTED_NAME_PARENTS = new Set(['list', 'tuple', 'argument_list']);

function targetNames(target: Node | null): Node[] {
  if (target === null) return [];
  if (target.type === 'identifier') return [target];
  if (PATTERNS.has(target.type)) return target.namedChildren.flatMap(targetNames);
  return [];
}

/** The string literals listed in `__all__`'s value: a list, a tuple, their sum, call arguments. */
function listedNames(value: Node | null): NameAt[] {
  if (value === null) return [];
  return value
    .descendantsOfType('string')
    .filter((string) => LISTED_NAME_PARENTS.has(string.parent?.type ?? ''))
    .flatMap((string) => {
      const name = stringLiteralValue(string);
      return name === null ? [] : [{ name, at: string.startIndex }];
    });
}

export function extendDunderAll(draft: PythonDraft, value: Node | null): void {
  draft.dunderAll = [...(draft.dunderAll ?? []), ...listedNames(value)];
}

function isVariableName(name: string): boolean {
  return name !== '_' && !DUNDER.test(name);
}

function definesType(value: Node): boolean {
  if (value.type !== 'call') return false;
  return TYPE_FACTORIES.has(lastSegment(value.childForFieldName('function')?.text ?? ''));
}

/** An assignment statement at module level; chained targets (`a = b = 0`) all bind. */
export function readModuleAssignment(statement: Node, scope: Scope, draft: PythonDraft): void {
  const left = statement.childForFieldName('left');
  const right = statement.childForFieldName('right');
  if (left?.text === '__all__') {
    if (statement.type === 'augmented_assignment') extendDunderAll(draft, right);
    else draft.dunderAll = listedNames(right);
    return;
  }
  const targets = targetNames(left);
  let value = right;
  while (value?.type === 'assignment') {
    targets.push(...targetNames(value.childForFieldName('left')));
    value = value.childForFieldName('right');
  }
  if (value === null) return;
  const typeAlias = lastSegment(statement.childForFieldName('type')?.text ?? '') === 'TypeAlias';
  const typeOnly = typeAlias || scope.typeCheckingOnly;
  for (const target of targets) {
    const own = ownValue(target, left, value);
    draft.moduleBindings.push({
      name: target.text,
      at: target.startIndex,
      typeOnly,
      mutable: !typeOnly && isVariableName(target.text) && !definesType(own) && isMutableValue(own),
    });
  }
}

/** `a, b = [], set()`: each name's own value when the two sides pair up, else the whole value. */
function ownValue(target: Node, left: Node | null, value: Node): Node {
  if (left === null || !PATTERNS.has(left.type) || !SEQUENCES.has(value.type)) return value;
  const names = left.namedChildren.filter((child) => child.type !== 'comment');
  const values = value.namedChildren.filter((child) => child.type !== 'comment');
  const index = names.findIndex((name) => name.id === target.id);
  const paired = names.length === values.length && index >= 0 ? values[index] : undefined;
  return paired ?? value;
}

/** A `def`, `class` or `type X = …` statement at module level. */
export function recordModuleDefinition(
  draft: PythonDraft,
  name: Node | null,
  typeOnly: boolean,
): void {
  if (name !== null) {
    draft.moduleBindings.push({ name: name.text, at: name.startIndex, typeOnly, mutable: false });
  }
}

/**
 * An assignment statement directly in a class body is a field: a class attribute (static),
 * except an annotated one, which declares an instance field (dataclasses, `NamedTuple`,
 * `Protocol` members) unless it is a `ClassVar`.
 */
export function readClassBodyAssignment(statement: Node, cls: PythonClassDraft): void {
  const annotation = statement.childForFieldName('type')?.text;
  const isInstanceField = annotation !== undefined && !annotation.includes('ClassVar');
  const fields = Math.max(1, targetNames(statement.childForFieldName('left')).length);
  cls.members += fields;
  if (isInstanceField) cls.instanceMembers += fields;
}

/** Adds the exports and the mutable state of the module to the collector. */
export function recordModuleNames(draft: PythonDraft): void {
  const { facts } = draft;
  if (draft.dunderAll !== undefined) {
    for (const { name, at } of draft.dunderAll) facts.addExport(name, false, at);
  } else {
    for (const { name, at, typeOnly } of draft.moduleBindings) {
      if (!name.startsWith('_')) facts.addExport(name, typeOnly, at);
    }
  }
  const firstBinding = new Map<string, number>();
  const mutated = mutatedNames(draft.mutations);
  const state = new Map<string, number>();
  for (const { name, at, mutable } of draft.moduleBindings) {
    if (!firstBinding.has(name)) firstBinding.set(name, at);
    if (mutable && mutated.has(name) && !state.has(name))
      state.set(name, firstBinding.get(name) ?? at);
  }
  for (const { name, at } of draft.globalNames) {
    if (!state.has(name)) state.set(name, firstBinding.get(name) ?? at);
  }
  for (const [name, at] of state) facts.addMutableState(name, at);
}
