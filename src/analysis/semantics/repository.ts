import type { FileFacts, ImportBinding, ImportFact } from '../../model/facts.js';
import {
  folderOf,
  foldersDownTo,
  groupBy,
  hasPathSuffix,
  joinPath,
  type Located,
  locatedAmong,
} from '../repository-paths.js';
import type { ResolveImport } from '../resolve/resolution.js';
import { declaredIn, isScript, type Target, unresolved } from './targets.js';

/** Everything name resolution reads: the facts of every file and how imports lead to files. */
export interface Repository {
  readonly files: ReadonlyMap<string, FileFacts>;
  /** Resolves TS/JS specifiers (TypeScript's rules); Python and Java have their own locators. */
  readonly resolve: ResolveImport;
  readonly python: PythonModules;
  readonly java: JavaTypes;
}

export function createRepository(
  files: ReadonlyMap<string, FileFacts>,
  resolve: ResolveImport,
): Repository {
  return {
    files,
    resolve,
    python: createPythonModules(files.keys()),
    java: createJavaTypes(files),
  };
}

/** The module an import binding names, as a target: a repository file, or why it is none. */
export function moduleOfBinding(
  repository: Repository,
  fromFile: string,
  fact: ImportFact,
  binding: ImportBinding,
): Target {
  const facts = repository.files.get(fromFile);
  if (facts === undefined) return unresolved('not-found', fromFile);
  if (facts.language === 'python') {
    return pythonModule(repository, fromFile, pythonModuleName(fact, binding));
  }
  if (!isScript(facts)) return unresolved('not-found', fact.specifier);
  const resolution = repository.resolve(fromFile, fact.specifier);
  switch (resolution.kind) {
    case 'file':
      return repository.files.has(resolution.path)
        ? { kind: 'module', file: resolution.path }
        : unresolved('not-found', `${resolution.path} (not analysed)`);
    case 'external':
      return unresolved('external', resolution.packageName);
    case 'builtin':
      return unresolved('external', fact.specifier);
    default:
      return unresolved('not-found', fact.specifier);
  }
}

export function pythonModule(repository: Repository, fromFile: string, dotted: string): Target {
  const located = repository.python.locate(fromFile, dotted);
  if (located.kind === 'file') return { kind: 'module', file: located.file };
  if (located.kind === 'ambiguous') return unresolved('ambiguous', dotted);
  // A relative import names a module of this repository; an absolute one may be installed.
  return dotted.startsWith('.')
    ? unresolved('not-found', dotted)
    : unresolved('external', dotted.split('.')[0] ?? dotted);
}

/** `import a.b` binds the top package `a`: that is the module the name stands for. */
function pythonModuleName(fact: ImportFact, binding: ImportBinding): string {
  const top = fact.specifier.split('.')[0];
  const bindsTopPackage =
    binding.imported === '*' && fact.specifier.includes('.') && binding.local === top;
  return bindsTopPackage ? binding.local : fact.specifier;
}

/** `from pkg import mod` may import a submodule: `pkg` + `mod` → `pkg.mod`; `.` + `m` → `.m`. */
export function joinDotted(module: string, name: string): string {
  return module.endsWith('.') ? `${module}${name}` : `${module}.${name}`;
}

/**
 * Python modules by dotted name, from the repository's `.py` paths alone (no sys.path, no
 * installed packages). A module `a.b` is the file `a/b.py` or the package `a/b/__init__.py`.
 * - relative (`.m`, `..pkg.m`, `.`): from the importing file's folder, one folder up per dot
 *   after the first;
 * - absolute (`a.b`): under the repository root or one of the importing file's folders, the
 *   root first (the usual sys.path entries: the root, `src/`, the script's folder); failing
 *   that, under any folder, if only one file matches (tests importing from a `src/` layout).
 *   Several matches are ambiguous, none means the module is not in the repository.
 */
export interface PythonModules {
  locate(fromFile: string, dotted: string): Located;
  /** The submodule `name` of the package whose `__init__.py` is `moduleFile`. */
  submodule(moduleFile: string, name: string): string | undefined;
}

const INIT = '__init__.py';

export function createPythonModules(paths: Iterable<string>): PythonModules {
  const files = new Set([...paths].filter((path) => path.endsWith('.py')));
  const byModuleName = groupBy(files, moduleNameOf);
  const inFolder = (folder: string, parts: readonly string[]): string | undefined => {
    const candidates =
      parts.length === 0
        ? [joinPath(folder, INIT)]
        : [
            joinPath(folder, `${parts.join('/')}.py`),
            joinPath(folder, `${parts.join('/')}/${INIT}`),
          ];
    return candidates.find((candidate) => files.has(candidate));
  };
  return {
    locate(fromFile, dotted) {
      const dots = /^\.*/.exec(dotted)?.[0].length ?? 0;
      const parts = dotted
        .slice(dots)
        .split('.')
        .filter((part) => part !== '');
      if (dots > 0) {
        const base = ancestor(folderOf(fromFile), dots - 1);
        const file = base === undefined ? undefined : inFolder(base, parts);
        return file === undefined ? { kind: 'absent' } : { kind: 'file', file };
      }
      for (const folder of foldersDownTo(folderOf(fromFile))) {
        const file = inFolder(folder, parts);
        if (file !== undefined) return { kind: 'file', file };
      }
      const last = parts.at(-1);
      if (last === undefined) return { kind: 'absent' };
      const asFile = `${parts.join('/')}.py`;
      const asPackage = `${parts.join('/')}/${INIT}`;
      return locatedAmong(
        (byModuleName.get(last) ?? []).filter(
          (path) => hasPathSuffix(path, asFile) || hasPathSuffix(path, asPackage),
        ),
      );
    },
    submodule(moduleFile, name) {
      if (moduleFile !== INIT && !moduleFile.endsWith(`/${INIT}`)) return undefined;
      return inFolder(folderOf(moduleFile), [name]);
    },
  };
}

/** `a/b.py` → `b`; `a/b/__init__.py` → `b`. */
function moduleNameOf(path: string): string | undefined {
  const parts = path.split('/');
  const last = parts.at(-1);
  if (last === INIT) return parts.at(-2);
  return last?.slice(0, -'.py'.length);
}

/** The folder `levels` folders up, or undefined past the root. */
function ancestor(folder: string, levels: number): string | undefined {
  let current = folder;
  for (let level = 0; level < levels; level++) {
    if (current === '') return undefined;
    current = folderOf(current);
  }
  return current;
}

/**
 * Java types by name, from the repository's `.java` paths and facts (no class path, no
 * `package` declarations, which the facts do not carry). Approximations:
 * - a package is a folder: files in the same folder are the same package, and see each
 *   other's types without importing them;
 * - a fully qualified name `a.b.C` is the file whose path ends with `a/b/C.java` and declares
 *   `C`, whatever source root holds it (`src/main/java/`, a module's folder); a nested type
 *   `a.b.Outer.Inner` is `Inner` declared in the file ending with `a/b/Outer.java`;
 * - several such files (the same class in two modules) are ambiguous, not chosen between.
 */
export interface JavaTypes {
  locate(qualified: string): Located;
  /** The file of `fromFile`'s package that declares `name`: `Name.java` first. */
  inPackage(fromFile: string, name: string): Located;
}

const JAVA = '.java';

export function createJavaTypes(files: ReadonlyMap<string, FileFacts>): JavaTypes {
  const javaFiles = [...files].filter(([, facts]) => facts.language === 'java').map(([p]) => p);
  const byBaseName = groupBy(javaFiles, (path) => path.split('/').at(-1)?.slice(0, -JAVA.length));
  const byFolder = groupBy(javaFiles, folderOf);
  const declares = (path: string, name: string): boolean => {
    const facts = files.get(path);
    return facts !== undefined && declaredIn(path, facts, name) !== undefined;
  };
  return {
    locate(qualified) {
      const segments = qualified.split('.');
      const name = segments.at(-1) ?? '';
      // The longest path first: `a.b.Outer.Inner` may be `a/b/Outer/Inner.java` or nested.
      for (let length = segments.length; length >= 1; length--) {
        const suffix = `${segments.slice(0, length).join('/')}${JAVA}`;
        const candidates = (byBaseName.get(segments[length - 1] ?? '') ?? []).filter(
          (path) => hasPathSuffix(path, suffix) && declares(path, name),
        );
        if (candidates.length > 0) return locatedAmong(candidates);
      }
      return { kind: 'absent' };
    },
    inPackage(fromFile, name) {
      const folder = folderOf(fromFile);
      const named = joinPath(folder, `${name}${JAVA}`);
      if (declares(named, name)) return { kind: 'file', file: named };
      const inFolder = byFolder.get(folder) ?? [];
      return locatedAmong(inFolder.filter((path) => path !== fromFile && declares(path, name)));
    },
  };
}
