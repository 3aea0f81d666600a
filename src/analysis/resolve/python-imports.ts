import type { ImportFact } from '../../model/facts.js';
import { readProjectConfig } from './python-project-config.js';
import type { Resolution, ResolveImport } from './resolution.js';

/**
 * Python's import system, read from a repository's paths: which file `import a.b.c`, `from a.b
 * import c` or `from ..m import y` runs, the way CPython's path finder finds it.
 *
 * Where modules are searched (the entries of `sys.path`, in this order):
 * 1. the importing file's folder when it is no regular package (no `__init__.py`): where
 *    `python path/to/script.py` and pytest's default import mode put it;
 * 2. the source roots its project's `pyproject.toml`/`setup.cfg` names, relative to their
 *    folder: setuptools `[tool.setuptools.packages.find] where` and `package-dir` (`""` = a
 *    root, `pkg` = that package's folder), poetry `packages = [{include, from}]`, hatch
 *    `[tool.hatch.build.targets.wheel] packages` (the folder holding each), setup.cfg
 *    `[options] package_dir` and `[options.packages.find] where`; then that project's `src/`
 *    and its own folder;
 * 3. the repository's `src/`, then its root.
 * A file's project is the nearest folder above it holding a config: a config configures the
 * files under its folder and no other, so one added anywhere (a test fixture, a copy) cannot
 * change how the rest of the repository resolves. A package `package-dir` pins to a folder
 * that holds no package is searched for as usual.
 * In each entry a folder with `__init__.py` (a regular package) comes before `name.py`, and a
 * folder without (a namespace package, which has no file) only when no entry has either; a
 * regular package's submodules are searched in its folder alone. A relative import goes from
 * the importing file's own folder, never through the roots: another project's package of the
 * same name is never its package.
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
  /**
   * The paths an import's module would have at each entry searched (`a/b/c` under each root,
   * or under the package of a relative import): where a name found nowhere would be.
   */
  readonly tried: (from: string, specifier: string) => readonly string[];
  /** The configs that are no valid TOML or INI: the roots they name are unknown. */
  readonly unparsable: readonly UnparsableConfig[];
}

export interface UnparsableConfig {
  readonly path: string;
  /** Why, and how to fix it. */
  readonly problem: string;
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
  const { projects, unparsable } = readProjects(configs, folders);
  const repository = repositoryProject(folders);
  const isPackage = (folder: string) => files.has(join(folder, '__init__.py'));

  const find = (parts: readonly string[], entries: readonly string[], pins: Pins): Found => {
    let searched = entries;
    let file: string | undefined;
    for (const [depth, part] of parts.entries()) {
      const pinned = depth === 0 ? pins.get(part) : undefined;
      const found =
        (pinned === undefined ? undefined : packageAt(pinned)) ?? findIn(searched, part);
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

  // Where a folder's files search, built once per folder: every import of theirs asks again.
  const searches = new Map<string, Search>();
  const searchOf = (folder: string): Search => {
    const known = searches.get(folder);
    if (known !== undefined) return known;
    const project = projectOf(folder, projects) ?? repository;
    const search = {
      entries: unique([...(isPackage(folder) ? [] : [folder]), ...project.roots]),
      roots: project.roots,
      pins: project.pins,
    };
    searches.set(folder, search);
    return search;
  };

  const locate = (from: string, specifier: string): Found => {
    const dots = /^\.*/.exec(specifier)?.[0].length ?? 0;
    const rest = specifier
      .slice(dots)
      .split('.')
      .filter((part) => part !== '');
    const folder = dirname(from);
    const search = searchOf(folder);
    if (dots === 0) return find(rest, search.entries, search.pins);
    // The file's package (its folder) is its module name less the last part, or all of it for
    // an `__init__.py`, whose module name already drops `__init__`.
    const module = moduleName(from, search.roots);
    const depth =
      from.endsWith('/__init__.py') || from === '__init__.py' ? module.length : module.length - 1;
    if (depth < dots) return { missingAt: -1 };
    const pkg = up(folder, dots - 1);
    if (rest.length === 0) return { file: packageAt(pkg)?.file };
    return find(rest, [pkg], NO_PINS);
  };

  const resolve: ResolveImport = (from, specifier) =>
    resolution(locate(from, specifier), specifier);
  const tried = (from: string, specifier: string): string[] => {
    const dots = /^\.*/.exec(specifier)?.[0].length ?? 0;
    const rest = specifier
      .slice(dots)
      .split('.')
      .filter((part) => part !== '')
      .join('/');
    if (rest === '') return [];
    const folder = dirname(from);
    const entries = dots === 0 ? searchOf(folder).entries : [up(folder, dots - 1)];
    return entries.map((entry) => join(entry, rest));
  };
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
  return { resolve, graphImports, tried, unparsable };
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

/** Top-level packages a `package-dir` places in a folder of another name. */
type Pins = ReadonlyMap<string, string>;
const NO_PINS: Pins = new Map();

/** What one project's files search: its roots (then the repository's), and its pinned packages. */
interface Project {
  readonly roots: readonly string[];
  readonly pins: Pins;
}

interface Search extends Project {
  /** The roots, after the importing folder when it is no regular package. */
  readonly entries: readonly string[];
}

/** The projects by folder: the one folder, or none, their configs sit in. */
function readProjects(
  configs: ReadonlyMap<string, string>,
  folders: ReadonlySet<string>,
): { projects: ReadonlyMap<string, Project>; unparsable: UnparsableConfig[] } {
  const named = new Map<string, { roots: string[]; pins: Map<string, string> }>();
  const unparsable: UnparsableConfig[] = [];
  for (const [path, text] of [...configs].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const base = dirname(path);
    const project = named.get(base) ?? { roots: [], pins: new Map<string, string>() };
    named.set(base, project);
    const config = readProjectConfig(path, text);
    if ('problem' in config) unparsable.push({ path, problem: config.problem });
    else
      for (const [pkg, folder] of config.named) {
        const at = normalize(join(base, folder));
        if (pkg === '') project.roots.push(at);
        else if (!pkg.includes('.')) project.pins.set(pkg, at);
      }
  }
  const projects = new Map<string, Project>();
  for (const [base, { roots, pins }] of named)
    projects.set(base, {
      roots: unique([...roots, ...withSrc(base, folders), ...withSrc('', folders)]),
      pins,
    });
  return { projects, unparsable };
}

/** The nearest project at or above a folder. */
function projectOf(folder: string, projects: ReadonlyMap<string, Project>): Project | undefined {
  for (let at = folder; ; at = dirname(at)) {
    const project = projects.get(at);
    if (project !== undefined || at === '') return project;
  }
}

/** What a file under no config searches: the repository's `src/`, then its root. */
function repositoryProject(folders: ReadonlySet<string>): Project {
  return { roots: withSrc('', folders), pins: NO_PINS };
}

function withSrc(folder: string, folders: ReadonlySet<string>): string[] {
  return [...(folders.has(join(folder, 'src')) ? [join(folder, 'src')] : []), folder];
}

/** The folder `levels` above `folder`. */
function up(folder: string, levels: number): string {
  let at = folder;
  for (let level = 0; level < levels; level++) at = dirname(at);
  return at;
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
