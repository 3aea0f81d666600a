import { Node, type Project, type SourceFile } from 'ts-morph';
import { type BuildLayout, buildLayouts, isUnder } from './build-layouts.js';
import {
  exportKeyFor,
  type PackageEntries,
  type PackageEntry,
  packageEntries,
} from './package-entries.js';

/** The repository files the public API is read from, as plain data (no file is read here). */
interface PublicApiInput {
  /** Absolute, `/`-separated folder the paths are relative to (the project's root). */
  readonly rootDir: string;
  /** Every tracked file, repository-relative. */
  readonly paths: readonly string[];
  /** The texts of the package.json and tsconfig/jsconfig files (and the configs they extend). */
  readonly texts: ReadonlyMap<string, string>;
  /** Those that could not be read (a symbolic link, over the read limit), and why. */
  readonly unreadable: ReadonlyArray<{ readonly path: string; readonly problem: string }>;
}

/**
 * The project's public API: what code outside the repository may import, which no pass removes,
 * renames, inlines away or changes the signature of, however unused it looks from inside.
 */
export interface PublicApi {
  /** The public names a file declares (absolute path): the local names of its public exports. */
  namesIn(filePath: string): ReadonlySet<string>;
  /**
   * Package entries that could not be traced to a source, one sentence each: every export of
   * their package is then public, since which of its files they publish is unknown.
   */
  readonly untraced: readonly string[];
}

const NONE: ReadonlySet<string> = new Set();
const PACKAGE = /(^|\/)package\.json$/;

/**
 * The public API of `project`: everything exported from a package's entries (`exports`, `main`,
 * `module`, `types`, `bin`, `browser`, traced back to their sources through the build configs)
 * and from files that look like entries whatever the package.json says (index and main files,
 * commands under bin/), and, transitively, everything those re-export. A package entry that
 * cannot be traced, or a package.json that cannot be read, makes its whole package public:
 * never less public for what AUREUS cannot read.
 */
export function publicApiOf(project: Project, input: PublicApiInput): PublicApi {
  const root = input.rootDir.replace(/\/+$/, '');
  const relative = (file: SourceFile) => file.getFilePath().slice(root.length + 1);
  const files = project.getSourceFiles().filter((file) => !file.isInNodeModules());
  const sources = files.map(relative);
  const entries = new Set(sources.filter(looksLikeEntryPoint));
  const untraced: string[] = [];
  const publishEverything = (folder: string) => {
    const nested = packageFolders(input.paths).filter(
      (other) => other !== folder && isUnder(other, folder),
    );
    for (const source of sources)
      if (isUnder(source, folder) && !nested.some((inner) => isUnder(source, inner)))
        entries.add(source);
  };
  for (const { path, problem } of input.unreadable) {
    if (!PACKAGE.test(path)) continue;
    untraced.push(`\`${path}\` could not be read (${problem}): ${KEPT}`);
    publishEverything(folderOf(path));
  }
  const layouts = buildLayouts(input.texts, sources);
  const forms = publishedForms(sources, layouts);
  const tracked = new Set(input.paths);
  for (const [path, text] of input.texts) {
    if (!PACKAGE.test(path) || path.split('/').includes('node_modules')) continue;
    const pkg = packageEntries(path, text);
    if (pkg.problem !== undefined) {
      untraced.push(`\`${path}\` cannot be read: ${pkg.problem}; ${KEPT}`);
      publishEverything(pkg.folder);
    }
    const traced = traceEntries(pkg, forms, tracked);
    for (const source of traced.sources) entries.add(source);
    for (const entry of traced.untraced)
      untraced.push(
        `\`${path}\` \`${entry.field}\` (${entry.target}) was not traced to a source file (no tsconfig \`outDir\`/\`rootDir\` leads there): ${KEPT}`,
      );
    if (traced.untraced.length > 0) publishEverything(pkg.folder);
  }
  const names = exportedClosure(
    [...entries].flatMap((path) => project.getSourceFile(`${root}/${path}`) ?? []),
  );
  return { namesIn: (filePath) => names.get(filePath) ?? NONE, untraced };
}

const KEPT = 'every export of its package is kept as public API.';

/**
 * The local names of everything the entries export, by absolute file path, following
 * re-exports (`export *`, `export { x } from`) to the declarations, and namespaces
 * (`export * as ns`, `import * as ns; export { ns }`) to every export of their module.
 */
function exportedClosure(entries: readonly SourceFile[]): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  const visited = new Set<SourceFile>();
  const pending = [...entries];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (visited.has(file)) continue;
    visited.add(file);
    for (const declarations of file.getExportedDeclarations().values())
      for (const declaration of declarations) {
        if (Node.isSourceFile(declaration)) {
          pending.push(declaration);
          continue;
        }
        const path = declaration.getSourceFile().getFilePath();
        const known = names.get(path) ?? new Set<string>();
        known.add(localName(declaration));
        names.set(path, known);
      }
  }
  return names;
}

/** The name a declaration has in its own file; `default` for an anonymous default export. */
function localName(declaration: Node): string {
  const name = Node.hasName(declaration) ? declaration.getName() : undefined;
  return name ?? 'default';
}

/**
 * Whether a file is likely loaded by something outside the project whatever the package.json
 * says (a package's or folder's index, a main module, a command): its exports stay public.
 */
function looksLikeEntryPoint(path: string): boolean {
  const segments = path.split('/');
  const base = segments[segments.length - 1] ?? '';
  return segments.slice(0, -1).includes('bin') || /^(index|main)\.[cm]?[jt]sx?$/.test(base);
}

/** The folders holding a package.json, repository-relative ('' at the root). */
function packageFolders(paths: readonly string[]): string[] {
  return paths
    .filter((path) => PACKAGE.test(path) && !path.split('/').includes('node_modules'))
    .map(folderOf);
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** Whether the declaration named `name` at the top of `filePath` (absolute) is public API. */
export function isPublic(api: PublicApi, filePath: string, name: string): boolean {
  return api.namesIn(filePath).has(name);
}

/**
 * Whether `node` is part of how a public declaration is called or typed: inside a public
 * top-level declaration, outside any function body. Rewriting it changes the public API.
 */
export function inPublicSignature(api: PublicApi, node: Node): boolean {
  const names = api.namesIn(node.getSourceFile().getFilePath());
  if (names.size === 0) return false;
  let statement: Node = node;
  for (let parent = node.getParent(); parent !== undefined; parent = parent.getParent()) {
    if (Node.isSourceFile(parent)) break;
    // A function's body is behind its signature; a namespace's is part of it.
    const body =
      (Node.isBodyable(parent) || Node.isBodied(parent)) && !Node.isModuleDeclaration(parent)
        ? parent.getBody()
        : undefined;
    if (body?.containsRange(node.getPos(), node.getEnd()) === true) return false;
    statement = parent;
  }
  return topLevelNames(statement).some((name) => names.has(name));
}

/** The names a top-level statement declares; `default` for an anonymous default export. */
function topLevelNames(statement: Node): string[] {
  if (Node.isVariableStatement(statement))
    return statement.getDeclarations().map((declaration) => declaration.getName());
  if (Node.isExportAssignment(statement)) return ['default'];
  return Node.hasName(statement) ||
    Node.isFunctionDeclaration(statement) ||
    Node.isClassDeclaration(statement)
    ? [localName(statement)]
    : [];
}

/** What a build makes of a source's extension: any of them, whichever format a tool emits. */
const OUTPUT_EXTENSIONS = ['.js', '.mjs', '.cjs', '.jsx', '.d.ts', '.d.mts', '.d.cts'];
const SOURCE_EXTENSION = /(\.d)?\.[cm]?[jt]sx?$/;
/** A published file whose exports are code: a module, a declaration file, or a bare path. */
const CODE = /\.[cm]?[jt]sx?$/;

/** Every file a build could publish for each source, and the sources behind each such file. */
type PublishedForms = ReadonlyMap<string, readonly string[]>;

/**
 * For each source (repository-relative), the files that could stand for it once published: the
 * source itself, and the outputs of every build, beside it (tsc's default) and under each
 * layout's output folders, with any output extension.
 */
function publishedForms(
  sources: readonly string[],
  layouts: readonly BuildLayout[],
): PublishedForms {
  const forms = new Map<string, string[]>();
  const add = (form: string, source: string) => {
    const known = forms.get(form);
    if (known === undefined) forms.set(form, [source]);
    else if (!known.includes(source)) known.push(source);
  };
  for (const source of sources) {
    add(source, source);
    const stems = [source.replace(SOURCE_EXTENSION, '')];
    for (const { sourceRoot, outDirs } of layouts) {
      if (!isUnder(source, sourceRoot) || outDirs.some((dir) => isUnder(source, dir))) continue;
      const relative = source.slice(sourceRoot === '' ? 0 : sourceRoot.length + 1);
      for (const dir of outDirs)
        stems.push(`${dir === '' ? '' : `${dir}/`}${relative.replace(SOURCE_EXTENSION, '')}`);
    }
    for (const stem of stems)
      for (const extension of OUTPUT_EXTENSIONS) add(stem + extension, source);
  }
  return forms;
}

interface TracedEntries {
  /** The sources the package publishes, repository-relative. */
  readonly sources: ReadonlySet<string>;
  /** One entry of each group none of whose entries could be traced to a file of the repository. */
  readonly untraced: readonly PackageEntry[];
}

/**
 * The sources behind a package's entries. The entries of one group name one module in several
 * formats, so one traced entry traces its group (`exports["."]` of `@zod/source` to
 * `src/index.ts` traces its `import` and `require` builds too). An entry that is a committed
 * file other than code (`./package.json`, a stylesheet) publishes no exports and is traced.
 */
function traceEntries(
  pkg: PackageEntries,
  forms: PublishedForms,
  tracked: ReadonlySet<string>,
): TracedEntries {
  const sources = new Set<string>();
  const tracedGroups = new Set<string>();
  for (const entry of pkg.entries) {
    const found = entrySources(entry, pkg, forms);
    for (const source of found) sources.add(source);
    const itself = tracked.has(entry.target) || !isCode(entry.target);
    if (found.length > 0 || itself) tracedGroups.add(entry.group);
  }
  const untraced = new Map<string, PackageEntry>();
  for (const entry of pkg.entries)
    if (!tracedGroups.has(entry.group) && !untraced.has(entry.group))
      untraced.set(entry.group, entry);
  return { sources, untraced: [...untraced.values()] };
}

function entrySources(entry: PackageEntry, pkg: PackageEntries, forms: PublishedForms): string[] {
  const { target, key } = entry;
  const star = target.indexOf('*');
  if (key === undefined || star === -1)
    return candidatesOf(target).flatMap((candidate) => forms.get(candidate) ?? []);
  const prefix = target.slice(0, star);
  const suffix = target.slice(star + 1);
  const found: string[] = [];
  for (const [form, sources] of forms) {
    if (form.length < prefix.length + suffix.length) continue;
    if (!form.startsWith(prefix) || !form.endsWith(suffix)) continue;
    const subpath = key.replace('*', form.slice(prefix.length, form.length - suffix.length));
    // A more specific key (a `null` exclusion, say) answers for this subpath instead.
    if (exportKeyFor(subpath, pkg.exportKeys) === key) found.push(...sources);
  }
  return found;
}

/** A path as Node's `main` reads it: as given, else with an extension, else as a folder. */
function candidatesOf(target: string): string[] {
  if (CODE.test(target)) return [target];
  const folder = target === '' ? 'index' : `${target}/index`;
  return [
    target,
    ...OUTPUT_EXTENSIONS.map((extension) => target + extension),
    ...OUTPUT_EXTENSIONS.map((extension) => folder + extension),
  ];
}

/** Whether the file's exports could matter: code, or a path without an extension (a folder). */
function isCode(target: string): boolean {
  const base = target.slice(target.lastIndexOf('/') + 1);
  return CODE.test(target) || !base.includes('.') || base.endsWith('*');
}
