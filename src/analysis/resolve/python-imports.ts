import { parse as parseToml } from 'smol-toml';
import type { ImportFact } from '../../model/facts.js';
import { isRecord } from '../../model/json.js';
import type { Resolution, ResolveImport } from './resolution.js';

/**
 * Python's import system, read from a repository's paths: which file `import a.b.c`, `from a.b
 * import c` or `from ..m import y` runs, the way CPython's path finder finds it.
 *
 * Where modules are searched (the entries of `sys.path`, in this order):
 * 1. the importing file's folder when it is no regular package (no `__init__.py`): where
 *    `python path/to/script.py` and pytest's default import mode put it;
 * 2. the source roots each `pyproject.toml`/`setup.cfg` names, relative to its folder:
 *    setuptools `[tool.setuptools.packages.find] where` and `package-dir` (`""` = a root,
 *    `pkg` = that package's folder), poetry `packages = [{include, from}]`, hatch
 *    `[tool.hatch.build.targets.wheel] packages` (the folder holding each), setup.cfg
 *    `[options] package_dir` and `[options.packages.find] where`; then that project's `src/`
 *    and its own folder;
 * 3. the repository's `src/`, then its root.
 * In each entry a folder with `__init__.py` (a regular package) comes before `name.py`, and a
 * folder without (a namespace package, which has no file) only when no entry has either; a
 * regular package's submodules are searched in its folder alone.
 *
 * Edges: the module the statement names, and only it. `import a.b.c` also runs
 * `a/__init__.py` and `a/b/__init__.py`, but those are already running (or done) when `a.b.c`
 * runs, so they never close a cycle at import time; counting them would make every package
 * whose `__init__.py` imports its submodules a cycle with each of them. `from a.b import c`
 * leads to `a/b/c.py` when `c` is a submodule (CPython imports it), else to `a.b`'s file.
 * A top-level name found in no entry is `external` (standard library or installed package); a
 * name below a repository package found nowhere, a namespace package (no file) and a relative
 * import above its top-level package are `unresolved`.
 */
export interface PythonImports {
  readonly resolve: ResolveImport;
  /**
   * The file's imports as the graph takes them: `from m import x` becomes an import of `m.x`
   * for each `x` that is a module, and stays one of `m` for the names that are not.
   */
  readonly graphImports: (from: string, imports: readonly ImportFact[]) => ImportFact[];
}

/** The configuration files that name source roots. */
export const PYTHON_CONFIG = /(^|\/)(pyproject\.toml|setup\.cfg)$/;

/** What a dotted name leads to: a file, a namespace package (no file), or nothing from depth on. */
type Found = { readonly file: string | undefined } | { readonly missingAt: number };

export function pythonImports(
  paths: readonly string[],
  configs: ReadonlyMap<string, string>,
): PythonImports {
  const files = new Set(paths);
  const folders = new Set(paths.flatMap(ancestors));
  const { roots, packageFolders } = sourceRoots(configs, folders);
  const isPackage = (folder: string) => files.has(join(folder, '__init__.py'));

  const find = (parts: readonly string[], entries: readonly string[]): Found => {
    let searched = entries;
    let file: string | undefined;
    for (const [depth, part] of parts.entries()) {
      const pinned = depth === 0 ? packageFolders.get(part) : undefined;
      const found = pinned === undefined ? findIn(searched, part) : packageAt(pinned);
      if (found === undefined) return { missingAt: depth };
      ({ file } = found);
      searched = found.folders;
    }
    return { file };
  };
  const packageAt = (folder: string) =>
    isPackage(folder) ? { file: join(folder, '__init__.py'), folders: [folder] } : undefined;
  const findIn = (entries: readonly string[], part: string) => {
    const namespace: string[] = [];
    for (const entry of entries) {
      const path = join(entry, part);
      const pkg = packageAt(path);
      if (pkg !== undefined) return pkg;
      if (files.has(`${path}.py`)) return { file: `${path}.py`, folders: [] };
      if (folders.has(path)) namespace.push(path);
    }
    return namespace.length === 0 ? undefined : { file: undefined, folders: namespace };
  };

  const locate = (from: string, specifier: string): Found => {
    const dots = /^\.*/.exec(specifier)?.[0].length ?? 0;
    const rest = specifier
      .slice(dots)
      .split('.')
      .filter((part) => part !== '');
    const folder = dirname(from);
    const entries = unique([...(isPackage(folder) ? [] : [folder]), ...roots]);
    if (dots === 0) return find(rest, entries);
    const module = moduleName(from, roots);
    // The file's package: its module name less the last part (an `__init__.py` is its package).
    const pkg =
      from.endsWith('/__init__.py') || from === '__init__.py' ? module : module.slice(0, -1);
    if (pkg.length < dots) return { missingAt: -1 };
    // Found from the package, through the roots: the importing file's folder is no entry here.
    return find([...pkg.slice(0, pkg.length - dots + 1), ...rest], roots);
  };

  const resolve: ResolveImport = (from, specifier) =>
    resolution(locate(from, specifier), specifier);
  const graphImports = (from: string, imports: readonly ImportFact[]): ImportFact[] =>
    imports.flatMap((fact) => {
      const named = fact.bindings.filter(({ imported }) => imported !== '*');
      const submodules = named.filter(
        ({ imported }) => 'file' in locate(from, child(fact.specifier, imported)),
      );
      const own = fact.bindings.filter((binding) => !submodules.includes(binding));
      return [
        ...(own.length > 0 || fact.bindings.length === 0 ? [{ ...fact, bindings: own }] : []),
        ...submodules.map((binding) => ({
          ...fact,
          specifier: child(fact.specifier, binding.imported),
          bindings: [binding],
        })),
      ];
    });
  return { resolve, graphImports };
}

function resolution(found: Found, specifier: string): Resolution {
  if ('file' in found)
    return found.file === undefined ? { kind: 'unresolved' } : { kind: 'file', path: found.file };
  const top = specifier.split('.')[0] ?? '';
  return found.missingAt === 0 && top !== ''
    ? { kind: 'external', packageName: top }
    : { kind: 'unresolved' };
}

/** `m` + `x` → `m.x`; `.` + `x` → `.x`, `..` + `x` → `..x`. */
function child(specifier: string, name: string): string {
  return specifier.endsWith('.') ? `${specifier}${name}` : `${specifier}.${name}`;
}

/** The file's dotted name under the longest source root holding it. */
function moduleName(file: string, roots: readonly string[]): string[] {
  const root =
    roots
      .filter((r) => r === '' || file.startsWith(`${r}/`))
      .sort((a, b) => b.length - a.length)[0] ?? '';
  const parts = (root === '' ? file : file.slice(root.length + 1)).replace(/\.py$/, '').split('/');
  return parts.at(-1) === '__init__' ? parts.slice(0, -1) : parts;
}

interface SourceRoots {
  readonly roots: readonly string[];
  /** Top-level packages a `package-dir` places in a folder of another name. */
  readonly packageFolders: ReadonlyMap<string, string>;
}

function sourceRoots(
  configs: ReadonlyMap<string, string>,
  folders: ReadonlySet<string>,
): SourceRoots {
  const roots: string[] = [];
  const packageFolders = new Map<string, string>();
  const withSrc = (folder: string) => [
    ...(folders.has(join(folder, 'src')) ? [join(folder, 'src')] : []),
    folder,
  ];
  for (const [path, text] of [...configs].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const base = dirname(path);
    const named = path.endsWith('.toml') ? pyprojectRoots(text) : setupCfgRoots(text);
    for (const [pkg, folder] of named) {
      const at = normalize(join(base, folder));
      if (pkg === '') roots.push(at);
      else if (!pkg.includes('.')) packageFolders.set(pkg, at);
    }
    roots.push(...withSrc(base));
  }
  return { roots: unique([...roots, ...withSrc('')]), packageFolders };
}

/** `[package name, folder]` pairs; the name `""` for a folder that is a source root. */
type Named = readonly (readonly [string, string])[];

function pyprojectRoots(text: string): Named {
  let toml: unknown;
  try {
    toml = parseToml(text);
  } catch {
    return []; // pip refuses the project too: it has no root to name.
  }
  const setuptools = field(toml, 'tool', 'setuptools');
  const packageDir = field(setuptools, 'package-dir');
  return [
    ...strings(field(setuptools, 'packages', 'find', 'where')).map((where) => ['', where] as const),
    ...Object.entries(isRecord(packageDir) ? packageDir : {}).flatMap(([pkg, folder]) =>
      strings(folder).map((at) => [pkg, at] as const),
    ),
    ...list(field(toml, 'tool', 'poetry', 'packages')).map((entry) => {
      const [from] = strings(field(entry, 'from'));
      return ['', from ?? ''] as const;
    }),
    ...strings(field(toml, 'tool', 'hatch', 'build', 'targets', 'wheel', 'packages')).map(
      (pkg) => ['', dirname(pkg)] as const,
    ),
  ];
}

/** setup.cfg, read as setuptools' configparser reads it: sections, `key = value`, indented continuations. */
function setupCfgRoots(text: string): Named {
  const values = new Map<string, string>();
  let section = '';
  let key = '';
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*([#;]|$)/.test(line)) continue;
    const header = /^\[(.+)\]\s*$/.exec(line);
    const entry = /^(\S[^=:]*?)\s*[=:]\s*(.*)$/.exec(line);
    if (header !== null) section = header[1]?.trim() ?? '';
    else if (entry !== null && !/^\s/.test(line)) {
      key = `${section}.${entry[1]?.toLowerCase()}`;
      values.set(key, entry[2] ?? '');
    } else values.set(key, `${values.get(key) ?? ''}\n${line.trim()}`);
  }
  const lines = (key: string) =>
    (values.get(key) ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
  return [
    ...lines('options.packages.find.where').map((where) => ['', where] as const),
    ...lines('options.package_dir').flatMap((line) => {
      const [pkg, folder] = line.split('=').map((part) => part.trim());
      return folder === undefined ? [] : [[pkg ?? '', folder] as const];
    }),
  ];
}

function field(value: unknown, ...keys: readonly string[]): unknown {
  return keys.reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), value);
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return list(value).filter((item): item is string => typeof item === 'string');
}

function join(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** `./src/` → `src`, `.` → ``: how configs write folders, as paths of the repository. */
function normalize(path: string): string {
  return path
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

function ancestors(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return parts.map((_, index) => parts.slice(0, index + 1).join('/'));
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
