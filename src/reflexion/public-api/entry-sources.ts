import { type BuildLayout, isUnder } from './build-layouts.js';
import { exportKeyFor, type PackageEntries, type PackageEntry } from './package-entries.js';

/** What a build makes of a source's extension: any of them, whichever format a tool emits. */
const OUTPUT_EXTENSIONS = ['.js', '.mjs', '.cjs', '.jsx', '.d.ts', '.d.mts', '.d.cts'];
const SOURCE_EXTENSION = /(\.d)?\.[cm]?[jt]sx?$/;
/** A published file whose exports are code: a module, a declaration file, or a bare path. */
const CODE = /\.[cm]?[jt]sx?$/;

/** Every file a build could publish for each source, and the sources behind each such file. */
export type PublishedForms = ReadonlyMap<string, readonly string[]>;

/**
 * For each source (repository-relative), the files that could stand for it once published: the
 * source itself, and the outputs of every build, beside it (tsc's default) and under each
 * layout's output folders, with any output extension.
 */
export function publishedForms(
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

export interface TracedEntries {
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
export function traceEntries(
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
