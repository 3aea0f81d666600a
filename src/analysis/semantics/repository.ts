import type { FileFacts, ImportBinding, ImportFact } from '../../model/facts.js';
import type { ResolveImport } from '../resolve/resolution.js';
import { createJavaTypes, type JavaTypes } from './java-types.js';
import { createPythonModules, type PythonModules } from './python-modules.js';
import { isScript, type Target, unresolved } from './targets.js';

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
