import type { ResolveImport } from './resolution.js';

/**
 * Go's import resolution, as the go command does it in module mode, over a repository's paths
 * and the texts of its `go.mod` and `go.work` files.
 *
 * An import path names a package, a folder: `example.com/m/store` imported from a module whose
 * `go.mod` (the nearest one above the importing file) says `module example.com/m` is the folder
 * `store` beside that `go.mod`. The import becomes an edge from the importing file to every file
 * of that package (its `.go` files but the `_test.go` ones), so a cycle between packages is a
 * cycle between the files whose imports close it. Files of one package use each other without
 * importing: Go compiles a package as one unit and forbids cycles only between packages, so those
 * uses are no edges. Test files import like the others but are no package's files: only the go
 * command's own test binary imports them, so no cycle goes through them.
 *
 * The modules an import can reach: the importing file's own, the local folders its `replace`
 * directives name (`replace example.com/x => ../x`), and, when a `go.work` above it `use`s that
 * module, every module the workspace uses (and the workspace's own local replacements). Another
 * module of the repository reached by none of these comes from the module proxy: `external`, as
 * are packages under `vendor/` (copies of other modules). A folder under a nested `go.mod`
 * belongs to that module only (reached from elsewhere as another module). When several
 * reachable modules hold the package (`replace example.com/m/b => ./other` beside the main
 * module's own `b`), the go command refuses the ambiguous import: the import reaches the files
 * of each, so no module can hide another's edges. A module named `std` is Go's
 * standard library, whose packages are its folders with no prefix. An import path whose first
 * element has no dot is the standard library's (`builtin`), as the go command decides; `C` is
 * cgo's. A path a reachable module owns but no folder of it holds is `unresolved`.
 *
 * Folders the go command skips inside a module hold no package: `testdata`, `vendor`, and names
 * beginning with `.` or `_` (a module's own folder may have any name). `paths` are the files that are built: the caller leaves out those a
 * `//go:build ignore` keeps out of every build (programs run with `go run`, FileFacts
 * `buildIgnored`). Other build constraints (`//go:build linux`, `_windows.go`) are not
 * evaluated: every platform's files count, so an import cycle on any platform is found.
 */
export function goImportResolver(
  paths: readonly string[],
  configs: ReadonlyMap<string, string>,
): ResolveImport {
  const modules = new Map<string, string>();
  for (const [path, text] of configs)
    if (baseName(path) === 'go.mod') modules.set(folderOf(path), moduleDirective(text));
  const packages = goPackages(paths, [...modules.keys()]);
  const reach = reachableModules(modules, configs);
  return (fromFile, specifier) => {
    if (specifier === 'C') return { kind: 'builtin' };
    const home = owningModule(folderOf(fromFile), modules.keys());
    const found = new Map<string, readonly string[]>();
    let owned = false;
    for (const module of home === undefined ? [] : (reach.get(home) ?? [])) {
      const folder = folderIn(module, specifier);
      if (folder === undefined) continue;
      // A folder of a nested module is that module's, reached only as another module.
      const files = packages.get(folder);
      if (files !== undefined && files.module === module.dir) found.set(folder, files.paths);
      else if (files === undefined && module.path !== '') owned = true;
    }
    // One package, the usual answer, is its own list: no copy per import.
    const [only, ...others] = found.values();
    if (only !== undefined)
      return { kind: 'package', paths: others.length === 0 ? only : [...only, ...others.flat()] };
    // A reachable module owns the path but holds no such package: the go command fails.
    if (owned) return { kind: 'unresolved' };
    if (!specifier.split('/', 1)[0]?.includes('.')) return { kind: 'builtin' };
    return { kind: 'external', packageName: specifier };
  };
}

/**
 * The folders an import path would be in each module the importing file reaches (whether or
 * not one holds the package): where an import that reaches no package was looked for.
 */
export function goImportCandidates(
  configs: ReadonlyMap<string, string>,
): (fromFile: string, specifier: string) => readonly string[] {
  const modules = new Map<string, string>();
  for (const [path, text] of configs)
    if (baseName(path) === 'go.mod') modules.set(folderOf(path), moduleDirective(text));
  const reach = reachableModules(modules, configs);
  return (fromFile, specifier) => {
    const home = owningModule(folderOf(fromFile), modules.keys());
    return (home === undefined ? [] : (reach.get(home) ?? [])).flatMap((module) => {
      const folder = folderIn(module, specifier);
      return folder === undefined ? [] : [folder];
    });
  };
}

/** A module an import can reach: its path (empty for the standard library) and its folder. */
interface ReachableModule {
  readonly path: string;
  readonly dir: string;
}

/** The files of each package (folder), and the module (go.mod folder) it belongs to. */
function goPackages(
  paths: readonly string[],
  moduleDirs: readonly string[],
): Map<string, { module: string | undefined; paths: string[] }> {
  const packages = new Map<string, { module: string | undefined; paths: string[] }>();
  for (const path of paths) {
    if (!path.endsWith('.go') || path.endsWith('_test.go')) continue;
    const folder = folderOf(path);
    const known = packages.get(folder);
    if (known !== undefined) {
      known.paths.push(path);
      continue;
    }
    const module = owningModule(folder, moduleDirs);
    const inModule = module === undefined || module === '' ? folder : folder.slice(module.length);
    if (!inModule.split('/').some(skippedFolder)) packages.set(folder, { module, paths: [path] });
  }
  return packages;
}

function skippedFolder(name: string): boolean {
  if (name === '') return false;
  return name === 'testdata' || name === 'vendor' || name.startsWith('.') || name.startsWith('_');
}

/** The folder an import path names in `module`, or undefined when the module does not own it. */
function folderIn(module: ReachableModule, specifier: string): string | undefined {
  let rest: string;
  if (module.path === '') rest = specifier;
  else if (specifier === module.path) rest = '';
  else if (specifier.startsWith(`${module.path}/`)) rest = specifier.slice(module.path.length + 1);
  else return undefined;
  return joinFolder(module.dir, rest);
}

/** For each module folder, the modules its files can import from, longest path first. */
function reachableModules(
  modules: ReadonlyMap<string, string>,
  configs: ReadonlyMap<string, string>,
): Map<string, ReachableModule[]> {
  const workspaces = [...configs]
    .filter(([path]) => baseName(path) === 'go.work')
    .map(([path, text]) => {
      const dir = folderOf(path);
      const used = directives(text, 'use').flatMap(([folder]) => {
        const joined = folder === undefined ? undefined : joinFolder(dir, folder);
        return joined === undefined ? [] : [joined];
      });
      return { dir, used, replaced: localReplacements(dir, text, modules) };
    });
  const reach = new Map<string, ReachableModule[]>();
  for (const [dir, path] of modules) {
    // A go.mod without a module directive makes the go command fail: it reaches nothing.
    if (path === '') continue;
    const own = { path: path === 'std' ? '' : path, dir };
    const goMod = configs.get(dir === '' ? 'go.mod' : `${dir}/go.mod`) ?? '';
    const found = [own, ...localReplacements(dir, goMod, modules)];
    const workspace = workspaces
      .filter((work) => work.used.includes(dir) && owningModule(dir, [work.dir]) !== undefined)
      .sort((a, b) => b.dir.length - a.dir.length)[0];
    if (workspace !== undefined) {
      for (const used of workspace.used) {
        const usedPath = modules.get(used);
        if (usedPath !== undefined) found.push({ path: usedPath, dir: used });
      }
      found.push(...workspace.replaced);
    }
    reach.set(
      dir,
      found.sort((a, b) => b.path.length - a.path.length),
    );
  }
  return reach;
}

/** `replace old [version] => ./folder`: the local folders that stand for module paths. */
function localReplacements(
  dir: string,
  text: string,
  modules: ReadonlyMap<string, string>,
): ReachableModule[] {
  return directives(text, 'replace').flatMap((words) => {
    const arrow = words.indexOf('=>');
    const path = words[0];
    const target = words[arrow + 1];
    if (arrow < 1 || path === undefined || target === undefined) return [];
    if (!target.startsWith('./') && !target.startsWith('../')) return [];
    const folder = joinFolder(dir, target);
    return folder !== undefined && modules.has(folder) ? [{ path, dir: folder }] : [];
  });
}

/** The module path a go.mod declares (`module example.com/m`); empty when it declares none. */
function moduleDirective(text: string): string {
  return directives(text, 'module')[0]?.[0] ?? '';
}

/**
 * Why the go command would refuse a go.mod or go.work (`path`) before resolving anything, or
 * undefined: a go.mod that names no module, or names two, and a `verb (` block never closed.
 * Its imports would then look external, so the caller counts the file as unreadable.
 */
export function goConfigProblem(path: string, text: string): string | undefined {
  if (parsedDirectives(text).unclosed)
    return 'a block opened with `(` is never closed by `)`, so the go command refuses it; close the block';
  if (baseName(path) !== 'go.mod') return undefined;
  const declared = directives(text, 'module');
  if (declared.length === 1 && declared[0]?.length === 1) return undefined;
  return declared.length === 0
    ? "it declares no module, so the go command refuses it and the imports of its packages cannot be told from other modules'; add a line naming its module path, such as `module example.com/m`"
    : 'it does not declare exactly one module path, so the go command refuses it; keep one line `module <path>`';
}

/**
 * The arguments of every `verb` directive, single-line or in a `verb ( … )` block, split into
 * words with comments removed and quotes taken off (the go.mod and go.work syntax).
 */
function directives(text: string, verb: string): string[][] {
  return parsedDirectives(text)
    .found.filter((directive) => directive.verb === verb)
    .map((directive) => directive.words);
}

/** Every directive of a go.mod or go.work, and whether a block is left open at the end. */
function parsedDirectives(text: string): {
  found: { verb: string; words: string[] }[];
  unclosed: boolean;
} {
  const found: { verb: string; words: string[] }[] = [];
  let block: string | undefined;
  for (const raw of text.split('\n')) {
    const words = raw
      .replace(/\/\/.*$/, '')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(unquote);
    const [first, second] = words;
    if (block !== undefined) {
      if (first === ')') block = undefined;
      else if (words.length > 0) found.push({ verb: block, words });
    } else if (first !== undefined) {
      if (second === '(') block = first;
      else found.push({ verb: first, words: words.slice(1) });
    }
  }
  return { found, unclosed: block !== undefined };
}

function unquote(word: string): string {
  return /^".*"$|^`.*`$/.test(word) ? word.slice(1, -1) : word;
}

/** The nearest of `dirs` at or above `folder`. */
function owningModule(folder: string, dirs: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const dir of dirs) {
    const inside = dir === '' || folder === dir || folder.startsWith(`${dir}/`);
    if (inside && (best === undefined || dir.length > best.length)) best = dir;
  }
  return best;
}

/** `dir` joined with a relative `/`-path; undefined when it climbs out of the repository. */
function joinFolder(dir: string, relative: string): string | undefined {
  const parts = dir === '' ? [] : dir.split('/');
  for (const part of relative.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') parts.push(part);
    else if (parts.pop() === undefined) return undefined;
  }
  return parts.join('/');
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
