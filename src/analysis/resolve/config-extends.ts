import { posix } from 'node:path';
import { parse } from 'jsonc-parser';
import { isPathSpecifier } from './package-names.js';

/**
 * The repository files a tsconfig/jsconfig may extend, relative to the repository root:
 * `"extends": "./configs/base"` names `configs/base` or `configs/base.json` (TypeScript tries
 * both, in that order). Packages (`"@tsconfig/node20"`) live in node_modules and absolute paths
 * outside the repository, so neither is listed.
 *
 * Read with jsonc-parser, not TypeScript, so that reading the configs never loads TypeScript
 * (~100 ms): a worker thread can load it while this one parses (resolver-thread.ts). Both read
 * JSON with comments and trailing commas alike. Where they differ (single quotes, bare keys, a
 * root that is not an object, broken text), TypeScript rejects the config and gives it the
 * default options: its `extends` is never followed, and listing a file more changes no answer.
 */
export function configExtends(configPath: string, text: string): string[] {
  const config: unknown = parse(text, [], { allowTrailingComma: true });
  const named: unknown = isObject(config) ? config.extends : undefined;
  const list = Array.isArray(named) ? named : [named];
  const folder = posix.dirname(configPath);
  return list.flatMap((entry) => {
    if (typeof entry !== 'string' || !isPathSpecifier(entry) || entry.startsWith('/')) return [];
    const path = posix.normalize(posix.join(folder, entry));
    if (path === '..' || path.startsWith('../')) return [];
    return path.endsWith('.json') ? [path] : [path, `${path}.json`];
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
