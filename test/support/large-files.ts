import { type LockPackage, lockfile } from '../pricing/npm-fixtures.js';

export const MIB = 1024 * 1024;

/** A TypeScript god class of at least `bytes` bytes: one-line methods, ~35 bytes each. */
export function godClassOf(bytes: number): string {
  const methods: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i += 1) {
    const method = `  m${i}(): number {\n    return ${i};\n  }\n`;
    methods.push(method);
    size += method.length;
  }
  return `export class Engine {\n${methods.join('')}}\n`;
}

/**
 * `count` installed packages named `<prefix>0…`; `padded`, each with a `resolved` URL of the
 * length npm writes with its integrity hash (~230 bytes an entry), else empty entries.
 */
export function packagesOf(
  prefix: string,
  count: number,
  padded: boolean,
): Record<string, LockPackage> {
  const packages: Record<string, LockPackage> = {};
  for (let i = 0; i < count; i += 1) {
    const name = `${prefix}${i}`;
    packages[`node_modules/${name}`] = padded
      ? { resolved: `https://registry.npmjs.org/${name}/-/${name}-1.0.0.tgz#${'0'.repeat(100)}` }
      : {};
  }
  return packages;
}

/** A lockfile where the dependency `big` brings `count` packages, itself included. */
export function lockWithBig(count: number, padded: boolean): string {
  const others = packagesOf('dep', count - 1, padded);
  const requires = Object.fromEntries(
    Object.keys(others).map((key) => [key.slice('node_modules/'.length), '1.0.0']),
  );
  return lockfile({ 'node_modules/big': { dependencies: requires }, ...others });
}
