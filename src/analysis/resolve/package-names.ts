import { builtinModules } from 'node:module';

const BUILTINS = new Set(builtinModules);

/** `node:fs`, `fs`, `fs/promises`: modules the runtime provides. */
export function isBuiltinSpecifier(specifier: string): boolean {
  return specifier.startsWith('node:') || BUILTINS.has(specifier);
}

/** `./a`, `../a`, `/abs/a`: specifiers that name a file rather than a package. */
export function isPathSpecifier(specifier: string): boolean {
  return (
    specifier === '.' ||
    specifier === '..' ||
    specifier.startsWith('./') ||
    specifier.startsWith('../') ||
    specifier.startsWith('/')
  );
}

// npm's rules, less the length limit: lower-case URL-safe characters, not starting with . or _.
const PACKAGE_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/;

/** `@scope/pkg/sub/path` → `@scope/pkg`; `lodash/fp` → `lodash`; undefined if not a package name. */
export function packageNameOf(specifier: string): string | undefined {
  const segments = specifier.split('/');
  const name = specifier.startsWith('@') ? segments.slice(0, 2).join('/') : segments[0];
  return name !== undefined && PACKAGE_NAME.test(name) ? name : undefined;
}

/** The package a file inside node_modules belongs to: the part after the last `node_modules/`. */
export function packageNameFromPath(path: string): string | undefined {
  const marker = '/node_modules/';
  const at = path.lastIndexOf(marker);
  if (at === -1) return undefined;
  return packageNameOf(path.slice(at + marker.length));
}

/**
 * Whether a tsconfig `paths` key (`@app/*`, `~`) matches the specifier: such a specifier names a
 * project file, so failing to resolve it is an error, not a missing package. The catch-all `*`
 * is left out: projects use it for extra type folders, and packages still resolve past it.
 */
export function matchesPathsPattern(
  paths: Readonly<Record<string, unknown>> | undefined,
  specifier: string,
): boolean {
  if (paths === undefined) return false;
  return Object.keys(paths).some((pattern) => {
    if (pattern === '*') return false;
    const star = pattern.indexOf('*');
    if (star === -1) return pattern === specifier;
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    return (
      specifier.length >= prefix.length + suffix.length &&
      specifier.startsWith(prefix) &&
      specifier.endsWith(suffix)
    );
  });
}
