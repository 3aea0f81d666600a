import {
  folderOf,
  foldersDownTo,
  groupBy,
  hasPathSuffix,
  joinPath,
  type Located,
  locatedAmong,
} from '../repository-paths.js';

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
