import type { MemberExpression, Node } from 'oxc-parser';
import { literalText, type Scope, type Source } from './syntax.js';
import { declarationScope, fieldsOf, isReference, isValuePosition } from './uses.js';

/**
 * What a name or member holds, as far as loading code goes: `loader` loads a module when called
 * (`require`, a name bound to it, `module.require`, what `createRequire(…)` returns), `module` is
 * a CommonJS module object (`module`, `require.main`, `process.mainModule`), whose `require`
 * is a loader, `factory` makes a loader (`createRequire`), `process` holds `mainModule`, `class`
 * is Node's `module` module as an ES import binds it (`import * as m`, `import M`, `{ Module }`),
 * whose `_load`, `prototype.require` and `createRequire` load code, `cache` is `require.cache`,
 * whose `entry` members are module objects too, and `native` is a member of `process` that runs
 * native code (`dlopen`, `binding`), priced where it is called.
 */
type Holds = 'loader' | 'module' | 'factory' | 'process' | 'class' | 'cache' | 'entry' | 'native';

type Name = {
  readonly type: 'Identifier';
  readonly name: string;
  readonly start: number;
  readonly end: number;
};

/**
 * One general rule instead of a list of spellings: a loader, or what holds one, is read only
 * where its use is plain. A loader called at once is an import (a literal name) or the
 * `dynamic-require` its call records (calls.ts recordRequire); bound to a name as a whole
 * (`const load = require`) it is followed by collectRequireAliases. Any other use lets the
 * loader reach code the analysis cannot name (`require.call(null, 'x')`, `[require][0]('x')`,
 * `const m = module; m.require('x')`, `({ require: load } = module)`, `module.constructor._load`),
 * so it is a `dynamic-require` where it is written: the import it may hide is neither a cycle's
 * edge nor a surface, so the check must say that it cannot see it.
 *
 * Plain uses that load nothing stay free: `typeof require`, `require.main === module` (the
 * "run as a script" test), `require.resolve(…)` (a path, nothing runs), evicting or looking up
 * an entry of `require.cache` (`delete require.cache[k]`, `k in require.cache`: an entry is a
 * module object, whose `require` loads anything), and a module object's own data (`module.exports`, `module.id`, `require.main.filename`).
 * A name the code declares in a function or block (`for (const { module } of imports)`) is its
 * own there, and its uses below the declaration are not the loader's; a top-level `var module`
 * is the CommonJS one still (it redeclares the wrapper's parameter), so only inner scopes count.
 */
export function recordLoaderReference(source: Source, id: Name, scope: Scope): void {
  const holds = rootHolds(source, id.name);
  if (holds === null || scope.inType) return;
  const { ancestors } = source;
  const parent = ancestors.at(-1);
  if (parent === undefined) return;
  const declared = declarationScope(ancestors, id);
  const shadows = shadowsOf.get(source) ?? [];
  shadowsOf.set(source, shadows);
  if (declared !== undefined) {
    if (declared !== null)
      shadows.push({ name: id.name, start: declared.start, end: declared.end });
    return;
  }
  if (!isReference(id, parent)) return;
  const local = shadows.some(
    (at) => at.name === id.name && at.start <= id.start && id.start < at.end,
  );
  if (local || !isValuePosition(ancestors, id) || usedPlainly(source, id, holds)) return;
  source.facts.addReflection('dynamic-require', id.start);
}

/** Per file, the inner scopes that declare a loader's name for their own. */
const shadowsOf = new WeakMap<Source, { name: string; start: number; end: number }[]>();

function rootHolds(source: Source, name: string): Holds | null {
  if (name === 'require' || source.requireAliases.has(name)) return 'loader';
  if (name === 'module') return 'module';
  if (name === 'createRequire') return 'factory';
  if (name === 'process') return 'process';
  return moduleImports(source).has(name) ? 'class' : null;
}

/**
 * Per file, the names its ES imports of Node's `module` bind to the module or its class, and
 * to `createRequire` under another name (called, what it makes is not followed: any use tells).
 */
const moduleImportsOf = new WeakMap<Source, ReadonlySet<string>>();

function moduleImports(source: Source): ReadonlySet<string> {
  const known = moduleImportsOf.get(source);
  if (known !== undefined) return known;
  const names = new Set<string>();
  const [program] = source.ancestors;
  for (const statement of program?.type === 'Program' ? program.body : []) {
    if (statement.type !== 'ImportDeclaration' || !/^(node:)?module$/.test(statement.source.value))
      continue;
    for (const { type, local, ...specifier } of statement.specifiers) {
      const imported = 'imported' in specifier ? specifier.imported : null;
      const name = imported?.type === 'Identifier' ? imported.name : imported?.value;
      if (type !== 'ImportSpecifier' || name === 'Module' || name === 'createRequire')
        names.add(local.name);
    }
  }
  moduleImportsOf.set(source, names);
  return names;
}

/** The members of the `module` module that load nothing. */
const MODULE_DATA = new Set(['builtinModules', 'isBuiltin', 'findSourceMap', 'SourceMap']);

/** A member's name when it is one whatever its spelling: `a.b`, `a['b']`, ``a[`b`]``; else null. */
export function memberName(source: Source, member: MemberExpression): string | null {
  if (!member.computed) return member.property.type === 'Identifier' ? member.property.name : null;
  return literalText(source, member.property);
}

/**
 * Members of a module object that reach a loader or code: its class (`Module._load`,
 * `createRequire`), the modules beside it, its own `load` and `_compile`. Its other members are
 * data (`exports`, `id`, `filename`), and an ES module's namespace held in a variable named
 * `module` (`module.default`) is no loader.
 */
const MODULE_LOADS = new Set([
  'constructor',
  'parent',
  'children',
  '__proto__',
  'load',
  '_compile',
]);
/**
 * Members of `process` that load nothing. Any other may (`getBuiltinModule` is a loader of
 * built-ins, `dlopen` loads native code, `binding` reaches Node's internals), so it is read as
 * a loader used other than plainly, as is a member the code names at run time.
 */
const PROCESS_DATA = new Set(
  `env argv argv0 execArgv execPath exitCode pid ppid platform arch version versions release
  config title features stdout stderr stdin cwd chdir exit abort kill nextTick hrtime uptime
  memoryUsage cpuUsage resourceUsage umask emitWarning on once off emit addListener listeners
  removeListener removeAllListeners listenerCount getuid geteuid getgid getegid getgroups
  noDeprecation throwDeprecation traceDeprecation report send connected disconnect channel
  prependListener prependOnceListener rawListeners eventNames getMaxListeners setMaxListeners
  setUncaughtExceptionCaptureCallback hasUncaughtExceptionCaptureCallback setSourceMapsEnabled
  sourceMapsEnabled loadEnvFile availableMemory constrainedMemory getActiveResourcesInfo ref unref
  debugPort allowedNodeEnvironmentFlags permission finalization`.split(/\s+/),
);
const COMPARISONS = new Set(['===', '!==', '==', '!=']);
const WRAPPERS = new Set([
  'ParenthesizedExpression',
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSNonNullExpression',
  'TSTypeAssertion',
  'ChainExpression',
]);

/** Walks out from the name while what it holds flows on; true when its use is a plain one. */
function usedPlainly(source: Source, id: Name, root: Holds): boolean {
  const { ancestors } = source;
  let holds = root;
  let child: Node = id;
  for (let at = ancestors.length - 1; at >= 0; at--) {
    const node = ancestors[at];
    if (node === undefined) return true;
    const fields = fieldsOf(node);
    if (WRAPPERS.has(node.type) || node.type === 'ConditionalExpression') {
      if (node.type === 'ConditionalExpression' && fields.test === child) return true;
    } else if (node.type === 'LogicalExpression') {
      // `load || require`: either side may be the value.
    } else if (node.type === 'SequenceExpression') {
      if (node.expressions.at(-1) !== child) return true;
    } else if (node.type === 'MemberExpression') {
      if (node.object !== child) return holds === 'process';
      const next = memberHolds(holds, memberName(source, node), child === id);
      if (next === 'plain') return true;
      if (next === null) return false;
      holds = next;
    } else if (node.type === 'CallExpression' && node.callee === child) {
      if (holds === 'factory') holds = 'loader';
      else return holds === 'loader' || holds === 'native';
    } else {
      return plainEnd(node, child, holds);
    }
    child = node;
  }
  return true;
}

/** What `x.name` holds when `x` holds `holds`: 'plain' when it loads nothing, null when unknown. */
function memberHolds(holds: Holds, name: string | null, bare: boolean): Holds | 'plain' | null {
  if (holds === 'process') {
    if (name === 'mainModule') return 'module';
    if (name === 'getBuiltinModule') return 'loader';
    if (name === 'dlopen' || name === 'binding' || name === '_linkedBinding') return 'native';
    return PROCESS_DATA.has(name ?? '') ? 'plain' : null;
  }
  if (holds === 'cache') return 'entry';
  if (name === null) return null;
  if (holds === 'class') {
    if (name === 'createRequire') return 'factory';
    return name === 'Module' ? 'class' : MODULE_DATA.has(name) ? 'plain' : null;
  }
  if (holds === 'module') {
    if (name === 'require') return 'loader';
    return MODULE_LOADS.has(name) ? null : 'plain';
  }
  if (holds === 'loader' && bare) {
    if (name === 'cache') return 'cache';
    if (name === 'resolve') return 'plain';
    if (name === 'main') return 'module';
  }
  return null;
}

/** Where the value stops flowing: plain there, or handed on to code the analysis cannot follow. */
function plainEnd(node: Node, child: Node, holds: Holds): boolean {
  const fields = fieldsOf(node);
  if (node.type === 'UnaryExpression') {
    const { operator } = node;
    return (
      operator === 'typeof' || holds === 'process' || (operator === 'delete' && holds === 'entry')
    );
  }
  if (node.type === 'BinaryExpression')
    return COMPARISONS.has(node.operator) || (node.operator === 'in' && holds === 'cache');
  if (node.type === 'ExpressionStatement') return true;
  if (holds === 'process') return !takesLoader(fields.id ?? fields.left);
  const bound =
    (node.type === 'VariableDeclarator' && fields.init === child) ||
    (node.type === 'AssignmentExpression' && fields.right === child);
  if (!bound) return false;
  const target = fieldsOf(fields.id ?? fields.left ?? {});
  // `const load = require`: an alias collectRequireAliases follows; `const { require: load } =
  // module` likewise. Any other shape (`const { main } = require`) hides what it takes.
  if (target.type === 'Identifier') return holds === 'loader';
  return holds === 'module' && node.type === 'VariableDeclarator' && onlyRequireTaken(target);
}

/** `{ require: load }` and nothing else. */
function onlyRequireTaken(pattern: Readonly<Record<string, unknown>>): boolean {
  const properties = pattern.properties;
  return (
    pattern.type === 'ObjectPattern' &&
    Array.isArray(properties) &&
    properties.every((property) => {
      const { type, computed, key, value } = fieldsOf(property);
      return (
        type === 'Property' &&
        computed === false &&
        fieldsOf(key ?? {}).name === 'require' &&
        fieldsOf(value ?? {}).type === 'Identifier'
      );
    })
  );
}

/**
 * A name bound to `process` as a whole (an alias whose members are not followed), or a pattern
 * that takes from it a member that may load code (PROCESS_DATA) or a computed key it cannot name.
 */
function takesLoader(target: unknown): boolean {
  const pattern = fieldsOf(target ?? {});
  if (pattern.type === 'Identifier') return true;
  if (pattern.type !== 'ObjectPattern' || !Array.isArray(pattern.properties)) return false;
  return pattern.properties.some((property) => {
    const { computed, key } = fieldsOf(property);
    return computed === true || !PROCESS_DATA.has(String(fieldsOf(key ?? {}).name));
  });
}
