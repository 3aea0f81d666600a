import type {
  Argument,
  CallExpression,
  Expression,
  ImportExpression,
  MemberExpression,
  NewExpression,
  Node,
  PrivateIdentifier,
  Program,
  TaggedTemplateExpression,
  TSImportType,
} from 'oxc-parser';
import {
  CONTAINER_METHODS,
  diLibraryOf,
  EVENT_METHODS,
  isContainerName,
  reflectionOfConstruction,
  reflectionOfGlobalCall,
} from '../javascript-conventions.js';
import { requireBindings } from './bindings.js';
import { memberName } from './loader-references.js';
import { isIdentifierNamed, literalText, type Scope, type Source, textOf } from './syntax.js';
import { forEachChild } from './tree-walk.js';

/**
 * Calls, by the rules written down in typescript/calls.ts. A tagged template is a call of its
 * tag with no argument list.
 */
export function recordCall(
  source: Source,
  node: CallExpression | TaggedTemplateExpression,
  scope: Scope,
): void {
  if (scope.inType) return;
  const callee = node.type === 'CallExpression' ? node.callee : node.tag;
  const first = node.type === 'CallExpression' ? node.arguments[0] : undefined;
  const target = withoutWrappers(callee);
  const name = calleeName(source, target);
  if (name !== null) scope.fn?.calls.push(name);
  recordQualifiedCall(source, target);
  if (name?.name === 'fork') recordEntryFile(source, node, first);
  if (loadsModules(source, target)) recordRequire(source, node, first);
  else if (target.type === 'Identifier')
    recordGlobalCall(source, node, textOf(source, target), first);
  else if (target.type === 'MemberExpression' && memberName(source, target) !== null)
    recordMethodCall(source, node, target, first);
}

export function recordConstruction(source: Source, node: NewExpression, scope: Scope): void {
  const target = withoutWrappers(node.callee);
  const name = calleeName(source, target);
  if (name === null) return;
  scope.fn?.calls.push(name);
  recordQualifiedCall(source, target);
  const kind = target.type === 'Identifier' ? reflectionOfConstruction(target.name) : null;
  if (kind !== null) source.facts.addReflection(kind, node.start);
  if (name.name === 'Worker') recordEntryFile(source, node, node.arguments[0]);
}

/**
 * A worker thread or a forked process (`new Worker(file)`, `fork(file)`) runs the file it is
 * given as a module of its own: named at run time (`__dirname + '/build/engine.js'`), it loads
 * code as a `require` of a computed name does, so it is the same finding.
 */
function recordEntryFile(source: Source, node: Node, first: Argument | undefined): void {
  if (first !== undefined && literalText(source, first) === null)
    source.facts.addReflection('dynamic-require', node.start);
}

/** `Reflect.x`, and code reached without its name (dynamicCodeOf), called or not. */
export function recordMemberAccess(source: Source, node: MemberExpression): void {
  if (!node.computed && isIdentifierNamed(node.object, 'Reflect')) {
    source.facts.addReflection('reflect', node.object.start);
  }
  const kind = dynamicCodeOf(source, node);
  if (kind !== null) source.facts.addReflection(kind, node.start);
}

/**
 * A global object's member picked by a computed key: a static key is that global
 * (`globalThis['eval']`), any other may be eval (`globalThis['ev' + 'al']`). And `Function`
 * reached through a function's `constructor` (`(() => 0).constructor(body)`).
 */
function dynamicCodeOf(source: Source, node: MemberExpression): 'eval' | 'new-function' | null {
  const object = withoutWrappers(node.object);
  const key = node.computed ? staticKey(node.property) : textOf(source, node.property);
  if (node.computed && object.type === 'Identifier' && isGlobalObject(source, object.name)) {
    return key === null ? 'eval' : reflectionOfGlobalCall(key);
  }
  if (key === 'constructor' && isFunctionValue(object)) return 'new-function';
  return reachesFunction(source, node, object) ? 'new-function' : null;
}

/**
 * `x.constructor.constructor` is Function whatever `x` is (`[]`, `{}`, `''`), and so is a key
 * the code computes that may be `constructor` taken twice on a literal (`''[c][c]`,
 * `[].constructor[c]`): kept in a name, `.call`-ed or called, it builds code from a string. On
 * any other value a computed key is ordinary code a maintainer would not call eval: a grid's
 * diagonal `grid[i][i]`, a class's static lookup `this.constructor[name]`.
 */
function reachesFunction(source: Source, node: MemberExpression, object: Expression): boolean {
  if (object.type !== 'MemberExpression') return false;
  const outer = keyOf(source, node);
  const inner = keyOf(source, object);
  if (outer === null || inner === null) return false;
  if (outer === 'constructor' && inner === 'constructor') return true;
  if (!LITERALS.has(withoutWrappers(object.object).type)) return false;
  if (outer === 'constructor' || inner === 'constructor')
    return outer === COMPUTED || inner === COMPUTED;
  return (
    outer === COMPUTED &&
    inner === COMPUTED &&
    textOf(source, node.property) === textOf(source, object.property)
  );
}

/** Values written out in the code, whose members are the language's own. */
const LITERALS = new Set([
  'ArrayExpression',
  'ObjectExpression',
  'Literal',
  'TemplateLiteral',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassExpression',
]);

/** Stands for a computed key whose value the code makes at run time. */
const COMPUTED = Symbol('computed');

/** A member's key: its name, a computed one's string, COMPUTED, or null when no string (`a[0]`). */
function keyOf(source: Source, node: MemberExpression): string | typeof COMPUTED | null {
  if (!node.computed) return textOf(source, node.property);
  const { property } = node;
  if (property.type === 'Literal')
    return typeof property.value === 'string' ? property.value : null;
  return staticKey(property) ?? COMPUTED;
}

/** A computed key's string when it is written as one (escapes decoded), else null. */
function staticKey(node: Expression | PrivateIdentifier): string | null {
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : null;
  const [only] = node.type === 'TemplateLiteral' ? node.quasis : [];
  return node.type === 'TemplateLiteral' && node.expressions.length === 0
    ? (only?.value.cooked ?? null)
    : null;
}

/** A function literal, or its prototype (`Object.getPrototypeOf(async () => {})`). */
function isFunctionValue(node: Expression): boolean {
  if (node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') return true;
  const [first] = node.type === 'CallExpression' ? node.arguments : [];
  return (
    node.type === 'CallExpression' &&
    first !== undefined &&
    first.type !== 'SpreadElement' &&
    isFunctionValue(withoutWrappers(first))
  );
}

/** `import('./x').T` and `typeof import('./x')` in a type: a type-only reference. */
export function recordTypeImport(source: Source, node: TSImportType): void {
  const specifier = literalText(source, node.source);
  if (specifier === null) return;
  const fact = { specifier, typeOnly: true, reexport: false, dynamic: false, bindings: [] };
  source.facts.addImport(fact, node.start);
  recordDiLibrary(source, specifier, node.start);
}

/** `import(…)`: ESTree's ImportExpression, TypeScript's call of the `import` keyword. */
export function recordDynamicImport(source: Source, node: ImportExpression): void {
  const specifier = literalText(source, node.source);
  if (specifier === null) {
    source.facts.addReflection('dynamic-import', node.start);
    return;
  }
  const fact = { specifier, typeOnly: false, reexport: false, dynamic: true, bindings: [] };
  source.facts.addImport(fact, node.start);
  recordDiLibrary(source, specifier, node.start);
}

/**
 * The function a callee evaluates to: without `!`, the ChainExpression ESTree wraps around an
 * optional chain (TypeScript marks the chain's nodes instead), parentheses (which oxc keeps and
 * typescript-estree drops), type assertions (`(require as Loader)`), and the values a comma
 * expression discards: `(0, eval)(code)` is an indirect eval and `(0, m.f)()`, the form
 * TypeScript's CommonJS emit calls imports in, is a call of `m.f`.
 */
function withoutWrappers(node: Expression): Expression {
  let current = node;
  for (;;) {
    if (current.type === 'SequenceExpression') {
      const last = current.expressions.at(-1);
      if (last === undefined) return current;
      current = last;
    } else if (
      current.type === 'TSNonNullExpression' ||
      current.type === 'ChainExpression' ||
      current.type === 'ParenthesizedExpression' ||
      current.type === 'TSAsExpression' ||
      current.type === 'TSSatisfiesExpression' ||
      current.type === 'TSTypeAssertion'
    ) {
      current = current.expression;
    } else {
      return current;
    }
  }
}

function recordQualifiedCall(source: Source, callee: Expression): void {
  const path = dottedName(source, callee);
  if (path !== null) source.facts.addQualifiedCall(path);
}

/**
 * `a.b.c` for a chain of names (FileFacts.qualifiedCalls), else null. A member named by a
 * literal is the same member (`fs['writeFileSync']` is `fs.writeFileSync`): read otherwise, the
 * brackets alone would take a call out of pricing.
 */
function dottedName(source: Source, node: Expression): string | null {
  if (node.type === 'Identifier') return textOf(source, node);
  if (node.type !== 'MemberExpression') return null;
  const name = node.computed ? memberName(source, node) : null;
  if (node.computed ? name === null : node.property.type !== 'Identifier') return null;
  const object = dottedName(source, node.object);
  return object === null ? null : `${object}.${name ?? textOf(source, node.property)}`;
}

function calleeName(source: Source, callee: Expression): { name: string; at: number } | null {
  if (callee.type === 'Identifier') return { name: textOf(source, callee), at: callee.start };
  if (callee.type === 'Super') return { name: 'super', at: callee.start };
  if (callee.type === 'MemberExpression' && !callee.computed) {
    return { name: textOf(source, callee.property), at: callee.property.start };
  }
  if (callee.type !== 'MemberExpression') return null;
  const name = memberName(source, callee);
  return name === null ? null : { name, at: callee.property.start };
}

/**
 * Whether a callee loads a module at run time as `require` does: `require` itself,
 * `module.require`, `require.main.require`, `process.mainModule.require`, what
 * `createRequire(…)` returns, or a name the file binds to one of these (`const load = require`,
 * `load = createRequire(import.meta.url)`: collectRequireAliases). Each is the same import
 * whatever it is called through: read as `require` alone, a module loaded through the others
 * would be no import at all, so neither priced as a sensitive surface
 * (`module.require('child_process')`) nor an edge the cycle and module rules judge. A binding is
 * known by its name in the file, whatever scope binds it: a local function of the same name is
 * taken for the loader, which can only add an import, never hide one.
 */
function loadsModules(source: Source, callee: Expression): boolean {
  if (callee.type === 'Identifier') {
    // The name as the engine reads it: `\u0072equire` is `require`.
    const name = callee.name;
    return name === 'require' || source.requireAliases.has(name);
  }
  if (callee.type === 'MemberExpression') {
    const name = memberName(source, callee);
    if (name === 'getBuiltinModule') return isMemberOf(callee.object, 'process', null);
    return (
      name === 'require' &&
      LOADER_OWNERS.some(([owner, member]) => isMemberOf(callee.object, owner, member))
    );
  }
  if (callee.type === 'CallExpression') {
    return calleeName(source, withoutWrappers(callee.callee))?.name === 'createRequire';
  }
  return false;
}

/** What holds a `require` method that loads modules: `module`, `require.main`, `process.mainModule`. */
const LOADER_OWNERS: readonly (readonly [string, string | null])[] = [
  ['module', null],
  ['require', 'main'],
  ['process', 'mainModule'],
];

/** `owner` alone (member null), or `owner.member`, as written. */
function isMemberOf(node: Expression, owner: string, member: string | null): boolean {
  const target = withoutWrappers(node);
  if (member === null) return isIdentifierNamed(target, owner);
  return (
    target.type === 'MemberExpression' &&
    !target.computed &&
    isIdentifierNamed(withoutWrappers(target.object), owner) &&
    isIdentifierNamed(target.property, member)
  );
}

/**
 * Text that may bind a loader to a name: `require` other than called at once, `createRequire`,
 * `mainModule`, or an escaped name (`\u0072equire`). A file with none, the common case, pays no
 * second walk.
 */
const LOADER_AS_VALUE =
  /\brequire\b(?!\s*\()|createRequire|mainModule|\\u|\b(?:globalThis|window|self|global)\b(?!\s*[.[])/;

/** Assignments that may leave a loader in their target (`load ||= require` too). */
const ASSIGNING: ReadonlySet<string> = new Set(['=', '||=', '??=', '&&=']);

/**
 * The names the file binds to a module loader (`loadsModules`), read before any call is: a
 * call may precede the binding in the text (`function run() { return load('x') }` above
 * `var load = require`, which hoisting binds first), and a plain assignment binds as a
 * declaration does (`let load; load = require`). A name bound to such a name is one too,
 * followed from each loader through the names bound to it, so a chain costs one pass. The
 * global object's names are followed the same way (`const g = globalThis`): `g[k](s)` may be eval.
 */
export function collectRequireAliases(source: Source, program: Program): void {
  if (!LOADER_AS_VALUE.test(source.text)) return;
  const boundTo = new Map<string, string[]>();
  const loaders: string[] = [];
  const bind = (name: string, value: Expression) => {
    const target = withoutWrappers(value);
    if (target.type === 'ConditionalExpression') {
      bind(name, target.consequent);
      bind(name, target.alternate);
    } else if (target.type === 'LogicalExpression') {
      bind(name, target.left);
      bind(name, target.right);
    } else if (target.type === 'Identifier' && target.name !== 'require') {
      const names = boundTo.get(target.name) ?? [];
      names.push(name);
      boundTo.set(target.name, names);
    } else if (loadsModules(source, target)) loaders.push(name);
  };
  // `const { require: load } = module` (or `require.main`, `process.mainModule`).
  const destructure = (pattern: Node, from: Expression) => {
    if (pattern.type !== 'ObjectPattern') return;
    if (!LOADER_OWNERS.some(([owner, member]) => isMemberOf(from, owner, member))) return;
    for (const property of pattern.properties) {
      if (
        property.type === 'Property' &&
        !property.computed &&
        isIdentifierNamed(property.key, 'require') &&
        property.value.type === 'Identifier'
      )
        loaders.push(property.value.name);
    }
  };
  const gather = (node: Node) => {
    if (node.type === 'VariableDeclarator' && node.init !== null) {
      if (node.id.type === 'Identifier') bind(node.id.name, node.init);
      else destructure(node.id, node.init);
    } else if (
      node.type === 'AssignmentExpression' &&
      ASSIGNING.has(node.operator) &&
      node.left.type === 'Identifier'
    )
      bind(node.left.name, node.right);
    forEachChild(source, node, gather);
  };
  gather(program);
  const follow = (names: string[], into: Set<string>) => {
    for (let name = names.pop(); name !== undefined; name = names.pop()) {
      if (!into.has(name)) names.push(...(boundTo.get(name) ?? []));
      into.add(name);
    }
  };
  follow(loaders, source.requireAliases);
  const globals = new Set<string>();
  follow(
    [...GLOBAL_OBJECTS].flatMap((name) => boundTo.get(name) ?? []),
    globals,
  );
  globalAliases.set(source, globals);
}

/** Per file, the names it binds to the global object (collectRequireAliases). */
const globalAliases = new WeakMap<Source, Set<string>>();

function isGlobalObject(source: Source, name: string): boolean {
  return GLOBAL_OBJECTS.has(name) || globalAliases.get(source)?.has(name) === true;
}

function recordRequire(source: Source, call: Node, first?: Argument): void {
  const at = call.start;
  const specifier = literalText(source, first);
  if (specifier === null) {
    source.facts.addReflection('dynamic-require', at);
    return;
  }
  const bindings = requireBindings(source);
  const fact = { specifier, typeOnly: false, reexport: false, dynamic: true, bindings };
  source.facts.addImport(fact, at);
  recordDiLibrary(source, specifier, at);
}

function recordGlobalCall(source: Source, call: Node, name: string, first?: Argument): void {
  // A timer handed a string evaluates it (browsers; Node refuses one).
  const timer = /^set(Timeout|Interval)$/.test(name) && literalText(source, first);
  const kind = typeof timer === 'string' ? 'eval' : reflectionOfGlobalCall(name);
  if (kind !== null) source.facts.addReflection(kind, call.start);
}

/** The names the global object goes by, in every runtime that runs JavaScript. */
const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self', 'global']);

function recordMethodCall(
  source: Source,
  call: Node,
  member: MemberExpression,
  first: Argument | undefined,
): void {
  const method = memberName(source, member) ?? textOf(source, member.property);
  const at = member.property.start;
  if (EVENT_METHODS.has(method)) {
    source.facts.addEventSubscription(method, literalText(source, first), at);
  }
  const receiver = receiverName(member.object);
  if (CONTAINER_METHODS.has(method) && receiver !== null && isContainerName(receiver)) {
    source.facts.addDiContainer(null, at);
  }
  // A class's constructor throws when called without `new`: a call is of Function's kind (a
  // function literal's is recorded as accessed: dynamicCodeOf).
  if (method === 'constructor' && !isFunctionValue(withoutWrappers(member.object)))
    source.facts.addReflection('new-function', call.start);
  // `globalThis.eval(code)`: the global, reached through the global object.
  const global = isGlobalObject(source, receiver ?? '') ? reflectionOfGlobalCall(method) : null;
  if (global !== null && member.object.type === 'Identifier')
    source.facts.addReflection(global, call.start);
  if (method === 'revocable' && isIdentifierNamed(member.object, 'Proxy')) {
    source.facts.addReflection('proxy', call.start);
  }
}

/** TypeScript's `text` of the receiver's name: decoded, a private name with its `#`. */
function receiverName(object: Expression): string | null {
  if (object.type === 'Identifier') return object.name;
  if (object.type !== 'MemberExpression' || object.computed) return null;
  const { property } = object;
  return property.type === 'PrivateIdentifier' ? `#${property.name}` : property.name;
}

function recordDiLibrary(source: Source, specifier: string, at: number): void {
  const library = diLibraryOf(specifier);
  if (library !== null) source.facts.addDiContainer(library, at);
}
