import type { Node } from 'web-tree-sitter';

/** Small readings of Python syntax nodes shared by the Python extractor's parts. */

/** The name of a function that has none (FunctionFact.name). */
export const ANONYMOUS = '(anonymous)';

/**
 * The value of a plain string literal as written between its quotes (escapes left as written);
 * null for anything else, f-strings with interpolations included, since their value is computed.
 */
export function stringLiteralValue(node: Node | null | undefined): string | null {
  if (node?.type !== 'string') return null;
  let start: Node | undefined;
  let end: Node | undefined;
  for (const part of node.namedChildren) {
    if (part.type === 'interpolation') return null;
    if (part.type === 'string_start') start = part;
    if (part.type === 'string_end') end = part;
  }
  if (start === undefined || end === undefined) return null;
  return node.text.slice(start.endIndex - node.startIndex, end.startIndex - node.startIndex);
}

/** `a.b.C` → `C`; a plain name is its own last segment. */
export function lastSegment(dottedName: string): string {
  return dottedName.slice(dottedName.lastIndexOf('.') + 1);
}

/** The expression a decorator applies, call arguments dropped: `@app.route('/')` → `app.route`. */
export function decoratorName(decorator: Node): string {
  const applied = decorator.firstNamedChild;
  if (applied === null) return '';
  const callee = applied.type === 'call' ? applied.childForFieldName('function') : applied;
  return callee?.text ?? '';
}

const NOT_POSITIONAL = new Set(['keyword_argument', 'list_splat', 'dictionary_splat', 'comment']);

/** Positional arguments of a call, in order (keyword arguments and splats do not count). */
export function positionalArguments(call: Node): Node[] {
  const args = call.childForFieldName('arguments');
  if (args?.type !== 'argument_list') return [];
  return args.namedChildren.filter((argument) => !NOT_POSITIONAL.has(argument.type));
}
