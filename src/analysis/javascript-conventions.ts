/**
 * The JavaScript/TypeScript vocabulary both JS/TS extractors (oxc and TypeScript's parser)
 * recognise, kept in one place so they cannot drift apart. Pure data and predicates on
 * names; no parser types.
 */

/** The syntax error of a JavaScript file holding TypeScript syntax, at the first such node. */
export const TYPESCRIPT_IN_JAVASCRIPT = 'TypeScript syntax in a JavaScript file';

/** Methods whose call subscribes to events (EventSubscriptionFact). */
export const EVENT_METHODS: ReadonlySet<string> = new Set([
  'on',
  'once',
  'addListener',
  'addEventListener',
  'subscribe',
]);

/**
 * Packages that are dependency-injection containers: any import of one (or of a subpath of it,
 * `inversify/lib/…`), whether static, re-exported, `import()` or `require()`, is a container use.
 */
const DI_LIBRARIES: readonly string[] = [
  'inversify',
  '@inversifyjs/container',
  '@inversifyjs/core',
  'tsyringe',
  'typedi',
  'awilix',
  'injection-js',
  'bottlejs',
  'brandi',
  'typescript-ioc',
];

/**
 * Frameworks with a built-in container: importing them is not by itself a container use (they
 * export much else), importing one of these names from them is.
 */
const FRAMEWORK_DI: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['@nestjs/common', new Set(['Injectable', 'Inject'])],
  ['@angular/core', new Set(['Injectable', 'Inject'])],
]);

/** The DI library an import specifier names, or null. */
export function diLibraryOf(specifier: string): string | null {
  for (const library of DI_LIBRARIES) {
    if (specifier === library || specifier.startsWith(`${library}/`)) return library;
  }
  return null;
}

/** The framework whose container a static import uses, given the names it imports, or null. */
export function frameworkDiOf(specifier: string, importedNames: readonly string[]): string | null {
  const names = FRAMEWORK_DI.get(specifier);
  return names !== undefined && importedNames.some((name) => names.has(name)) ? specifier : null;
}

/** Methods that register or resolve services on a container. */
export const CONTAINER_METHODS: ReadonlySet<string> = new Set([
  'register',
  'registerSingleton',
  'registerInstance',
  'resolve',
  'bind',
  'rebind',
  'get',
  'getAll',
]);

/**
 * Whether the receiver of a call is a container: its name (an identifier, or the last property
 * of `this.container`, `app.diContainer`) ends with `container` in any case.
 */
export function isContainerName(name: string): boolean {
  return /container$/i.test(name);
}

/** Logical operators: each is a decision point (short-circuit), compound assignments included. */
export const DECISION_OPERATORS: ReadonlySet<string> = new Set([
  '&&',
  '||',
  '??',
  '&&=',
  '||=',
  '??=',
]);

/** The reflection kind of a call to a global by name (`eval(…)`, `Function(…)`), or null. */
export function reflectionOfGlobalCall(name: string): 'eval' | 'new-function' | null {
  if (name === 'eval') return 'eval';
  if (name === 'Function') return 'new-function';
  return null;
}

/** The reflection kind of `new Name(…)`, or null. */
export function reflectionOfConstruction(name: string): 'new-function' | 'proxy' | null {
  if (name === 'Function') return 'new-function';
  if (name === 'Proxy') return 'proxy';
  return null;
}

/** Names of anonymous things (FunctionFact, class names for `Class.method`). */
export const ANONYMOUS = '(anonymous)';
export const DEFAULT_EXPORT = 'default';
