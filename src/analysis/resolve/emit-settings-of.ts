import { posix } from 'node:path';
import { parse } from 'jsonc-parser';
import { DEFAULT_EMIT_SETTINGS, type EmitSettings } from '../graph/emit-settings.js';
import { isPathSpecifier } from './package-names.js';

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];

/**
 * Each file's emit settings (EmitSettings): those of the nearest tsconfig.json (or
 * jsconfig.json) at or above it within the repository, the way the resolver finds its compiler
 * options, merged over the configs it `extends` inside the repository. Read from the config
 * texts with jsonc-parser, so that a run whose imports resolve from stored answers never loads
 * TypeScript. A config that `extends` a package (`@tsconfig/…`) contributes its own options
 * only: the package's are not in the snapshot (none of the common bases sets these options).
 */
export function emitSettingsByFile(
  texts: ReadonlyMap<string, string>,
): (file: string) => EmitSettings {
  const configOfFolder = new Map<string, string | null>();
  const settingsOfConfig = new Map<string, EmitSettings>();
  const nearestConfig = (folder: string): string | null => {
    const known = configOfFolder.get(folder);
    if (known !== undefined) return known;
    const here = CONFIG_NAMES.map((name) => (folder === '.' ? name : `${folder}/${name}`)).find(
      (path) => texts.has(path),
    );
    // Never above the repository: a config there belongs to another project.
    const found = here ?? (folder === '.' ? null : nearestConfig(posix.dirname(folder)));
    configOfFolder.set(folder, found);
    return found;
  };
  return (file) => {
    const config = nearestConfig(posix.dirname(file));
    if (config === null) return DEFAULT_EMIT_SETTINGS;
    let settings = settingsOfConfig.get(config);
    if (settings === undefined) {
      settings = emitSettingsOf(mergedOptions(config, texts, new Set()));
      settingsOfConfig.set(config, settings);
    }
    return settings;
  };
}

/** A config's `compilerOptions` over those of the configs it extends (later ones win). */
function mergedOptions(
  path: string,
  texts: ReadonlyMap<string, string>,
  seen: Set<string>,
): Record<string, unknown> {
  const text = texts.get(path);
  if (text === undefined || seen.has(path)) return {};
  seen.add(path);
  const config: unknown = parse(text, [], { allowTrailingComma: true });
  const named = isRecord(config) ? config.extends : undefined;
  const bases = (Array.isArray(named) ? named : [named]).flatMap((entry) => {
    if (typeof entry !== 'string') return [];
    // `./base` names `base` if it exists, else `base.json`.
    const candidates = configExtends(path, JSON.stringify({ extends: entry }));
    const found = candidates.find((candidate) => texts.has(candidate));
    return found === undefined ? [] : [found];
  });
  let merged: Record<string, unknown> = {};
  for (const base of bases) merged = { ...merged, ...mergedOptions(base, texts, seen) };
  const own = isRecord(config) ? config.compilerOptions : undefined;
  return isRecord(own) ? { ...merged, ...own } : merged;
}

/**
 * The emit settings of a tsconfig's `compilerOptions`, as written in JSON.
 * `preserveValueImports` and `importsNotUsedAsValues` are honoured although TypeScript 5.5
 * removed them: a project whose tsconfig still sets them compiles only with an older
 * TypeScript, which obeys them.
 */
export function emitSettingsOf(options: Readonly<Record<string, unknown>>): EmitSettings {
  const notUsed = lowerCase(options.importsNotUsedAsValues);
  const everyImport =
    options.verbatimModuleSyntax === true || notUsed === 'preserve' || notUsed === 'error';
  const strict = options.strict === true;
  return {
    preserve: everyImport ? 'imports' : options.preserveValueImports === true ? 'values' : 'none',
    jsxFactory: jsxFactoryName(options),
    decoratorMetadata:
      options.emitDecoratorMetadata === true
        ? options.experimentalDecorators === true
          ? 'legacy'
          : 'es'
        : null,
    strictNullChecks:
      typeof options.strictNullChecks === 'boolean' ? options.strictNullChecks : strict,
  };
}

/**
 * The first name of the JSX factory (`h` of `h`, `React` of `React.createElement`): what is
 * imported. Whatever the `jsx` runtime: file by file, TypeScript cannot resolve the automatic
 * runtime's module (`react/jsx-runtime`), so it keeps the factory's import as the classic
 * runtime needs it (the oracle test shows it).
 */
function jsxFactoryName(options: Readonly<Record<string, unknown>>): string {
  const factory =
    typeof options.jsxFactory === 'string' ? options.jsxFactory.split('.')[0]?.trim() : undefined;
  if (factory !== undefined && factory !== '') return factory;
  return typeof options.reactNamespace === 'string' && options.reactNamespace !== ''
    ? options.reactNamespace
    : DEFAULT_EMIT_SETTINGS.jsxFactory;
}

function lowerCase(value: unknown): string | undefined {
  return typeof value === 'string' ? value.toLowerCase() : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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
