import { posix } from 'node:path';
import { parse } from 'jsonc-parser';
import { isRecord } from '../../model/json.js';

/**
 * Where one TypeScript build writes what it compiles: the file `<sourceRoot>/a/b.ts` becomes
 * `<outDir>/a/b.js` (and `<declarationDir>/a/b.d.ts`). Repository-relative folders, '' the root.
 */
export interface BuildLayout {
  /** The tsconfig/jsconfig it comes from. */
  readonly config: string;
  readonly sourceRoot: string;
  readonly outDirs: readonly string[];
}

const CONFIG = /(^|\/)(tsconfig|jsconfig)[^/]*\.json$/;
const TS_SOURCE = /\.(ts|tsx|mts|cts)$/;
const JS_SOURCE = /\.(js|jsx|mjs|cjs)$/;
const DECLARATION = /\.d\.[cm]?ts$/;
/** What TypeScript leaves out of `include` unless it is named. */
const EXCLUDED_BY_DEFAULT = ['node_modules', 'bower_components', 'jspm_packages'];

/** The options that decide where a build writes, each path already relative to the repository. */
interface Settings {
  outDir?: string;
  declarationDir?: string;
  rootDir?: string;
  composite?: boolean;
  allowJs?: boolean;
  files?: string[];
  include?: string[];
  exclude?: string[];
}

/**
 * The layout of every tsconfig/jsconfig of the repository that writes somewhere else than beside
 * its sources (`outDir`, `declarationDir`), its options followed through the repository's own
 * `extends`. `rootDir` is the one given, the config's folder under `composite`, else (as tsc
 * does) the deepest folder holding every source the config takes in.
 */
export function buildLayouts(
  texts: ReadonlyMap<string, string>,
  sources: readonly string[],
): BuildLayout[] {
  const layouts: BuildLayout[] = [];
  for (const config of texts.keys()) {
    if (!CONFIG.test(config) || config.split('/').includes('node_modules')) continue;
    const settings = settingsOf(config, texts, new Set());
    const outDirs = [settings.outDir, settings.declarationDir].flatMap((dir) =>
      dir === undefined ? [] : [dir],
    );
    if (outDirs.length === 0) continue;
    const folder = folderOf(config);
    const sourceRoot =
      settings.rootDir ??
      (settings.composite === true ? folder : commonFolder(inputsOf(settings, folder, sources)));
    if (sourceRoot !== undefined) layouts.push({ config, sourceRoot, outDirs });
  }
  return layouts;
}

/** A config's settings over those of the configs it extends (later ones win), own ones last. */
function settingsOf(
  config: string,
  texts: ReadonlyMap<string, string>,
  seen: Set<string>,
): Settings {
  const text = texts.get(config);
  seen.add(config);
  const json: unknown =
    text === undefined ? undefined : parse(text, [], { allowTrailingComma: true });
  if (!isRecord(json)) return {};
  const folder = folderOf(config);
  const extended = Array.isArray(json.extends) ? json.extends : [json.extends];
  let settings: Settings = {};
  for (const base of extended) {
    const path = typeof base === 'string' ? extendedConfig(folder, base, texts) : undefined;
    if (path !== undefined && !seen.has(path))
      settings = { ...settings, ...settingsOf(path, texts, seen) };
  }
  const options = isRecord(json.compilerOptions) ? json.compilerOptions : {};
  const own: Settings = {};
  const dir = (value: unknown) => (typeof value === 'string' ? join(folder, value) : undefined);
  const list = (value: unknown) =>
    Array.isArray(value)
      ? value.flatMap((each) => (typeof each === 'string' ? [join(folder, each)] : []))
      : undefined;
  assign(own, 'outDir', dir(options.outDir));
  assign(own, 'declarationDir', dir(options.declarationDir));
  assign(own, 'rootDir', dir(options.rootDir));
  if (typeof options.composite === 'boolean') own.composite = options.composite;
  if (typeof options.allowJs === 'boolean') own.allowJs = options.allowJs;
  assign(own, 'files', list(json.files));
  assign(own, 'include', list(json.include));
  assign(own, 'exclude', list(json.exclude));
  return { ...settings, ...own };
}

function assign<K extends keyof Settings>(settings: Settings, key: K, value: Settings[K]): void {
  if (value !== undefined) settings[key] = value;
}

/** The repository config an `extends` names (`./base` is `./base` or `./base.json`). */
function extendedConfig(
  folder: string,
  base: string,
  texts: ReadonlyMap<string, string>,
): string | undefined {
  if (!base.startsWith('.')) return undefined;
  const path = join(folder, base);
  return [path, `${path}.json`].find((candidate) => texts.has(candidate));
}

/**
 * The sources a config compiles, as far as its literal folders tell: `files`, and what lies
 * under the part of each `include` before its first wildcard, less what `exclude` names.
 */
function inputsOf(settings: Settings, folder: string, sources: readonly string[]): string[] {
  const include = (settings.include ?? (settings.files === undefined ? [folder] : [])).map(
    literalPrefix,
  );
  const written = [settings.outDir, settings.declarationDir].flatMap((dir) =>
    dir === undefined ? [] : [dir],
  );
  const exclude = [
    ...(settings.exclude ?? EXCLUDED_BY_DEFAULT.map((name) => join(folder, name))),
    ...written,
  ].map(literalPrefix);
  const compiled = (path: string) =>
    !DECLARATION.test(path) &&
    (TS_SOURCE.test(path) || (settings.allowJs === true && JS_SOURCE.test(path)));
  return sources.filter(
    (path) =>
      compiled(path) &&
      (settings.files?.includes(path) === true ||
        (include.some((prefix) => isUnder(path, prefix)) &&
          !exclude.some((prefix) => isUnder(path, prefix)))),
  );
}

/** The folders of a glob before its first wildcard: `src/**\/*.ts` → `src`. */
function literalPrefix(glob: string): string {
  const segments = glob.split('/');
  const wild = segments.findIndex((segment) => /[*?[{]/.test(segment));
  return (wild === -1 ? segments : segments.slice(0, wild)).join('/');
}

/** The deepest folder holding all of `paths`; undefined for none. */
function commonFolder(paths: readonly string[]): string | undefined {
  let common: string[] | undefined;
  for (const path of paths) {
    const folders = path.split('/').slice(0, -1);
    if (common === undefined) common = folders;
    let same = 0;
    while (same < common.length && common[same] === folders[same]) same += 1;
    common = common.slice(0, same);
  }
  return common?.join('/');
}

/** Whether `path` is `folder` or lies under it ('' holds everything). */
export function isUnder(path: string, folder: string): boolean {
  return folder === '' || path === folder || path.startsWith(`${folder}/`);
}

function folderOf(path: string): string {
  const folder = posix.dirname(path);
  return folder === '.' ? '' : folder;
}

/** `folder/relative`, normalised, '' for the root; a path leaving the repository stays as it is. */
function join(folder: string, relative: string): string {
  const path = posix.normalize(posix.join(folder, relative)).replace(/\/$/, '');
  return path === '.' ? '' : path;
}
