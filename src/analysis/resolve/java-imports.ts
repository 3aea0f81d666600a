import type { FileFacts, ImportFact, JavaUnitFact } from '../../model/facts.js';
import type { Resolution, ResolveImport } from './resolution.js';

/**
 * Java's import graph, resolved by package and class as javac resolves names, from the facts of
 * the repository's `.java` files alone (their `package` and top-level types: source roots vary,
 * so a path proves nothing). Pure: no I/O.
 *
 * - `import a.b.C;`, `import a.b.C.Inner;`, `import static a.b.C.m;`, `import static a.b.C.*;`
 *   lead to the file declaring top-level type C in package a.b: the longest prefix of the name
 *   that is a package of the repository, then a type of it. The import is an edge even when
 *   unused: javac needs it to compile.
 * - A type name the code uses (JavaUnitFact.references) is looked up as javac does: a type the
 *   file imports by name, then a type of its own package, then one of a package it imports on
 *   demand (`import a.b.*;`); a name none of them holds is tried as a fully qualified one
 *   (`a.b.C.make()`), then as a member type a class of the file inherits (typeLookup). Each
 *   file reached that way is an edge, at the name's first use; an import of the file's own
 *   nested type is none.
 * - A name declared by no file of the repository (`java.*`, `javax.*`, libraries) is external;
 *   a type declared by several files (one package in two modules, or a copy anywhere) leads to
 *   each of them: which one a build compiles depends on its class path, and a copy must never
 *   take an edge away from the real class.
 */
export interface JavaImportGraph {
  /** Each Java file's imports as the graph counts them: its own, then one per type it uses. */
  readonly imports: ReadonlyMap<string, readonly ImportFact[]>;
  /** Answers for Java files' specifiers (as written, or a type's fully qualified name). */
  readonly resolve: ResolveImport;
  /** The file whose uses of types declared several times crossed JAVA_COPY_EDGE_LIMIT, and why. */
  readonly incomplete: readonly { readonly path: string; readonly problem: string }[];
}

/**
 * The most edges uses of types declared by several files may add. Each use is an edge to every
 * declaring file, so N copies of a class used by M files are N × M edges: past the limit the
 * graph keeps one edge to none of them and the analysis is incomplete, never a pass.
 */
export const JAVA_COPY_EDGE_LIMIT = 500_000;

const NO_UNIT: JavaUnitFact = { package: '', types: [], references: [] };

/** A repository type: its fully qualified name and every file declaring it. */
interface JavaType {
  readonly name: string;
  readonly paths: readonly string[];
}

type Packages = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

export function javaImportGraph(
  files: ReadonlyMap<string, FileFacts>,
  limit = JAVA_COPY_EDGE_LIMIT,
): JavaImportGraph {
  const packages = typesByPackage(files);
  const resolve: ResolveImport = (from, specifier) => {
    const name = specifier.endsWith('.*') ? specifier.slice(0, -2) : specifier;
    const type = qualifiedType(packages, name) ?? typeIn(packages, '', name);
    if (type !== undefined) return declaredBy(from, type.paths);
    // A package of the repository imported on demand: the types used from it are the edges.
    return packages.has(name) ? { kind: 'unresolved' } : external(name);
  };
  const lookUp = typeLookup(files, packages);
  const imports = new Map<string, readonly ImportFact[]>();
  let copyEdges = 0;
  let crossedAt: string | undefined;
  for (const [path, facts] of files) {
    if (facts.language !== 'java') continue;
    // Importing one's own nested type (`import p.Frame.Kind;` in Frame.java) is no dependency.
    const written = facts.imports.filter(({ specifier }) => {
      const target = resolve(path, specifier);
      return target.kind !== 'file' || target.path !== path;
    });
    const used = (facts.java ?? NO_UNIT).references.flatMap(({ name, line }) => {
      const type = lookUp(path, name);
      return type === undefined || type.paths.every((declaring) => declaring === path)
        ? []
        : [usedType(type.name, line)];
    });
    imports.set(path, [...written, ...used]);
    for (const { specifier } of [...written, ...used]) {
      const target = resolve(path, specifier);
      if (target.kind === 'package') copyEdges += target.paths.length;
    }
    if (copyEdges > limit && crossedAt === undefined) crossedAt = path;
  }
  if (crossedAt === undefined) return { imports, resolve, incomplete: [] };
  const problem = `its uses of types several files declare take the Java import graph past ${limit.toLocaleString('en-US')} edges to copies (each use is an edge to every file declaring the type), more than AUREUS holds, so the graph has no edge to a type declared twice; remove the copies or list them under paths.ignore in the policy`;
  return {
    imports,
    resolve: (from, specifier) => {
      const target = resolve(from, specifier);
      return target.kind === 'package' ? { kind: 'unresolved' } : target;
    },
    incomplete: [{ path: crossedAt, problem }],
  };
}

type Lookup = (name: string) => JavaType | undefined;

/**
 * What a used name stands for in a file (nameLookup), else a member type its classes inherit:
 * one a supertype's file declares, up the chain (`Publisher` in a subclass of `Connection`,
 * which declares it). Last, unlike javac, where inherited member types come first: a nested
 * type shadowing an import of its name is rare, and most names (`String`) are found nowhere.
 */
function typeLookup(
  files: ReadonlyMap<string, FileFacts>,
  packages: Packages,
): (path: string, name: string) => JavaType | undefined {
  const lookups = new Map<string, Lookup>();
  const lookupOf = (path: string): Lookup | undefined => {
    const facts = files.get(path);
    if (facts === undefined) return undefined;
    const known = lookups.get(path) ?? nameLookup(facts, packages);
    lookups.set(path, known);
    return known;
  };
  const inherited = (path: string, name: string, seen: Set<string>): JavaType | undefined => {
    const lookUp = lookupOf(path);
    if (lookUp === undefined || seen.has(path)) return undefined;
    seen.add(path);
    for (const { extends: base, implements: interfaces } of files.get(path)?.classes ?? []) {
      for (const written of base === null ? interfaces : [base, ...interfaces]) {
        for (const parentPath of lookUp(written)?.paths ?? []) {
          if (parentPath === path) continue;
          if (declares(files.get(parentPath), name)) return lookUp(written);
          const further = inherited(parentPath, name, seen);
          if (further !== undefined) return further;
        }
      }
    }
    return undefined;
  };
  return (path, name) =>
    lookupOf(path)?.(name) ?? inherited(path, name.split('.', 1)[0] ?? name, new Set());
}

function declares(facts: FileFacts | undefined, name: string): boolean {
  return (
    facts !== undefined &&
    (facts.classes.some((fact) => fact.name === name) ||
      facts.abstractions.some((fact) => fact.name === name))
  );
}

/**
 * Where a Java import's name would be as a path: its dotted name as folders under each source
 * root the repository's Java files show (a file of package `a.b` in `src/main/java/a/b/` makes
 * `src/main/java` a root). A name no analysed file declares may be in a linked folder there, or
 * its file may itself be a link: `a.b.C` is `a/b/C.java`, and a nested `a.b.C.D` is in
 * `a/b/C.java` too, so each prefix's `.java` file is a candidate; a wildcard `a.b.*` names every
 * `.java` entry of `a/b/`, of which only the `linked` ones (the paths of links and submodules)
 * are unread.
 */
export function javaImportCandidates(
  files: ReadonlyMap<string, FileFacts>,
  linked: Iterable<string> = [],
): (fromFile: string, specifier: string) => readonly string[] {
  const roots = new Set<string>();
  for (const [path, facts] of files) {
    const pkg = facts.java?.package;
    if (pkg === undefined) continue;
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    const tail = pkg.replaceAll('.', '/');
    if (tail === '') roots.add(folder);
    else if (folder === tail) roots.add('');
    else if (folder.endsWith(`/${tail}`)) roots.add(folder.slice(0, -tail.length - 1));
  }
  const linkedJava = new Map<string, string[]>();
  for (const path of linked) {
    if (!path.endsWith('.java')) continue;
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    linkedJava.set(folder, [...(linkedJava.get(folder) ?? []), path]);
  }
  return (_fromFile, specifier) => {
    const wildcard = specifier.endsWith('.*');
    const parts = (wildcard ? specifier.slice(0, -2) : specifier).split('.');
    return [...roots].flatMap((root) => {
      const under = (count: number) => [root, ...parts.slice(0, count)].filter(Boolean).join('/');
      const folder = under(parts.length);
      const classFiles = parts.map((_, index) => `${under(index + 1)}.java`);
      return [folder, ...classFiles, ...(wildcard ? (linkedJava.get(folder) ?? []) : [])];
    });
  };
}

/** Package → top-level type → every file that declares it. */
function typesByPackage(files: ReadonlyMap<string, FileFacts>): Packages {
  const packages = new Map<string, Map<string, string[]>>();
  for (const [path, facts] of files) {
    const unit = facts.java;
    if (unit === undefined) continue;
    const declared = packages.get(unit.package) ?? new Map<string, string[]>();
    packages.set(unit.package, declared);
    for (const type of unit.types) {
      const paths = declared.get(type);
      if (paths === undefined) declared.set(type, [path]);
      else if (!paths.includes(path)) paths.push(path);
    }
  }
  return packages;
}

function typeIn(packages: Packages, pkg: string, type: string): JavaType | undefined {
  const paths = packages.get(pkg)?.get(type);
  return paths === undefined ? undefined : { name: pkg === '' ? type : `${pkg}.${type}`, paths };
}

/**
 * The files declaring a type, as an import from `from` reaches them: the importing file itself
 * when it alone declares the type (no edge), else the others, each an edge (no edge to itself).
 */
function declaredBy(from: string, paths: readonly string[]): Resolution {
  const others = paths.filter((path) => path !== from);
  if (others.length === 0) return { kind: 'file', path: from };
  return others.length === 1 && others[0] !== undefined
    ? { kind: 'file', path: others[0] }
    : { kind: 'package', paths: others };
}

/** `a.b.C`, `a.b.C.Inner`, `a.b.C.m`: the longest prefix that is a package, then its type. */
function qualifiedType(packages: Packages, name: string): JavaType | undefined {
  const segments = name.split('.');
  for (let index = segments.length - 1; index >= 1; index -= 1) {
    const type = typeIn(packages, segments.slice(0, index).join('.'), segments[index] ?? '');
    if (type !== undefined) return type;
  }
  return undefined;
}

/**
 * The repository type a used name's first part stands for in this file: a type it imports by
 * name, one of its own package, one of a package it imports on demand; else the name tried as
 * fully qualified. A name imported by name stays the import's even when the repository does
 * not declare it: `List` imported from `java.util` is never a package's own `List`.
 */
function nameLookup(facts: FileFacts, packages: Packages): (name: string) => JavaType | undefined {
  const own = (facts.java ?? NO_UNIT).package;
  const byName = new Map<string, string>();
  const onDemand: string[] = [];
  for (const { specifier, bindings } of facts.imports) {
    if (specifier.endsWith('.*')) onDemand.push(specifier.slice(0, -2));
    else if (bindings[0] !== undefined) byName.set(bindings[0].local, specifier);
  }
  return (name) => {
    const first = name.split('.', 1)[0] ?? name;
    const imported = byName.get(first);
    if (imported !== undefined) return qualifiedType(packages, imported);
    for (const pkg of [own, ...onDemand]) {
      const type = typeIn(packages, pkg, first);
      if (type !== undefined) return type;
    }
    return qualifiedType(packages, name);
  };
}

function usedType(qualified: string, line: number): ImportFact {
  const local = qualified.slice(qualified.lastIndexOf('.') + 1);
  return {
    specifier: qualified,
    typeOnly: false,
    reexport: false,
    dynamic: false,
    keptWhen: ['always'],
    bindings: [{ imported: local, local }],
    line,
  };
}

/** `java.util.List` → `java.util`: the names before the first capitalised one, by convention. */
function external(name: string): Resolution {
  const segments = name.split('.');
  const firstType = segments.findIndex((segment) => /^[A-Z]/.test(segment));
  const packageName = segments.slice(0, firstType <= 0 ? segments.length : firstType).join('.');
  return { kind: 'external', packageName };
}
