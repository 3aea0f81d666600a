import type { Node } from 'web-tree-sitter';
import type { FactsCollector, FunctionDraft } from './facts-collector.js';
import type { TextRange } from './line-index.js';

/**
 * The Python extractor's working state: the shared FactsCollector plus what only Python needs
 * until the walk ends (class member counts, module-level names for exports and mutable state).
 * Functions and classes are recorded when the walk enters them and completed by the nodes inside
 * them, so the walk needs no exit events and can use an explicit stack.
 */

export interface PythonClassDraft {
  readonly name: string;
  readonly range: TextRange;
  readonly extends: string | null;
  readonly implements: readonly string[];
  /** An `ABC` base or an `ABCMeta` metaclass. */
  readonly declaredAbstract: boolean;
  /** A `Protocol` base. */
  readonly protocol: boolean;
  methods: number;
  members: number;
  instanceMembers: number;
  hasAbstractMethod: boolean;
}

/** A name bound at module level, read for exports and mutable state. */
export interface ModuleBinding {
  readonly name: string;
  readonly at: number;
  /** Inside `if TYPE_CHECKING:` or a type alias: it exists for type checkers only. */
  readonly typeOnly: boolean;
  /** A variable-style name bound to a mutable value (python-state.ts), outside type-only code. */
  readonly mutable: boolean;
}

/** The names one function binds itself, and those it declares `global`. */
export interface FunctionLocals {
  readonly bound: Set<string>;
  readonly globals: Set<string>;
}

/** A mutation of `name` (python-state.ts), inside the functions of `within` (innermost last). */
export interface Mutation {
  readonly name: string;
  readonly within: readonly FunctionLocals[];
}

export interface NameAt {
  readonly name: string;
  readonly at: number;
}

export interface PythonDraft {
  readonly facts: FactsCollector;
  readonly classes: PythonClassDraft[];
  readonly moduleBindings: ModuleBinding[];
  /** Names a function declares `global`: module state rebound at run time. */
  readonly globalNames: NameAt[];
  /** Names functions and methods mutate (python-state.ts). */
  readonly mutations: Mutation[];
  /** The names listed in `__all__`, when the module defines it. */
  dunderAll: NameAt[] | undefined;
  /** Offsets of `x.connect(…)` calls: signal subscriptions if a signal library is imported. */
  readonly connectCalls: number[];
  importsSignals: boolean;
}

/** Where a node sits: what receives its decision points and calls, and which scope binds names. */
export interface Scope {
  /** The innermost function or lambda; undefined at module level and directly in a class body. */
  readonly fn: FunctionDraft | undefined;
  /** The class whose body is the current scope (not set inside its methods). */
  readonly cls: PythonClassDraft | undefined;
  readonly moduleLevel: boolean;
  /** Inside the body of `if TYPE_CHECKING:`, which never runs. */
  readonly typeCheckingOnly: boolean;
  /** The enclosing functions' own names, innermost last; empty at module level. */
  readonly locals: readonly FunctionLocals[];
}

/** Small readings of Python syntax nodes shared by the Python extractor's parts. */

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
