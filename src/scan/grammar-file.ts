import { createRequire } from 'node:module';

/**
 * Where a grammar's `.wasm` file is: inside its grammar package. The Action's bundle replaces
 * this module with one that looks beside the bundle (scripts/build-action.mjs), because a
 * bundled Action runs with no node_modules at all.
 */
export function grammarFile(packagePath: string): string {
  return createRequire(import.meta.url).resolve(packagePath);
}
