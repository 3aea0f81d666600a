import type { Node } from 'web-tree-sitter';
import type { FunctionKind } from '../../model/facts.js';
import { ANONYMOUS, rangeOf, type Scope } from './java-draft.js';
import type { TextRange } from './line-index.js';

/**
 * Java functions: methods with a body (`Type.method`; abstract and interface methods without a
 * body are signatures, not functions), constructors (`Type.Type`: their declared name is the
 * type's) and lambdas (kind `arrow`). A lambda takes the name of the variable it initialises
 * (`Type.field` for a field, as TypeScript names class fields holding functions) or of the
 * variable or field it is assigned to; otherwise it is `(anonymous)`. Methods of anonymous
 * classes are `(anonymous).method`. Parameters: formal and varargs parameters; the receiver
 * parameter (`Foo this`) is not one.
 */

export interface FunctionHeader {
  readonly name: string;
  readonly kind: FunctionKind;
  readonly range: TextRange;
  readonly parameters: number;
}

const COUNTED_PARAMETERS = new Set(['formal_parameter', 'spread_parameter', 'identifier']);

function countParameters(parameters: Node | null): number {
  if (parameters === null) return 0;
  if (parameters.type === 'identifier') return 1;
  return parameters.namedChildren.filter((parameter) => COUNTED_PARAMETERS.has(parameter.type))
    .length;
}

function lambdaName(lambda: Node, scope: Scope): string {
  const parent = lambda.parent;
  if (
    parent?.type === 'variable_declarator' &&
    parent.childForFieldName('value')?.id === lambda.id
  ) {
    const name = parent.childForFieldName('name')?.text ?? ANONYMOUS;
    const isField = parent.parent?.type === 'field_declaration';
    return isField ? `${scope.typeName ?? ANONYMOUS}.${name}` : name;
  }
  if (
    parent?.type === 'assignment_expression' &&
    parent.childForFieldName('right')?.id === lambda.id
  ) {
    const target = parent.childForFieldName('left');
    if (target?.type === 'identifier') return target.text;
    if (target?.type === 'field_access')
      return target.childForFieldName('field')?.text ?? ANONYMOUS;
  }
  return ANONYMOUS;
}

/** The header of a method, constructor or lambda; undefined for a method without a body. */
export function functionHeader(node: Node, scope: Scope): FunctionHeader | undefined {
  const range = rangeOf(node);
  const parameters = countParameters(node.childForFieldName('parameters'));
  if (node.type === 'lambda_expression') {
    return { name: lambdaName(node, scope), kind: 'arrow', range, parameters };
  }
  if (node.childForFieldName('body') === null) return undefined;
  const declared = node.childForFieldName('name')?.text ?? ANONYMOUS;
  const name = `${scope.typeName ?? ANONYMOUS}.${declared}`;
  const kind = node.type === 'method_declaration' ? 'method' : 'constructor';
  return { name, kind, range, parameters };
}
