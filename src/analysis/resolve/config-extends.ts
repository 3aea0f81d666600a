import { posix } from 'node:path';
import { typescript } from '../typescript-runtime.js';
import { isPathSpecifier } from './package-names.js';

/**
 * The repository files a tsconfig/jsconfig may extend, relative to the repository root:
 * `"extends": "./configs/base"` names `configs/base` or `configs/base.json` (TypeScript tries
 * both, in that order). Packages (`"@tsconfig/node20"`) live in node_modules and absolute paths
 * outside the repository, so neither is listed; a config whose text does not parse extends
 * nothing here (TypeScript reports it when it reads the config).
 */
export function configExtends(configPath: string, text: string): string[] {
  const config: unknown = typescript.parseConfigFileTextToJson(configPath, text).config;
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
