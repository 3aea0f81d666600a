import type { Node } from 'web-tree-sitter';
import type { FunctionKind } from '../../model/facts.js';
import { type GoDraft, goStringValue, isExportedName, rangeOf, type Scope } from './go-draft.js';
import type { TextRange } from './line-index.js';

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

export interface FunctionHeader {
  readonly name: string;
  readonly kind: FunctionKind;
  readonly range: TextRange;
  readonly parameters: number;
}

const ANONYMOUS = '(anonymous)';
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

function isConstraint(interfaceType: Node): boolean {
  return interfaceType.namedChildren.some(isTypeSet);
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
  if (type?.type === 'interface_type' && !isConstraint(type)) {
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
