import { posix } from 'node:path';
import { type ResolveImport, resolvedFiles } from '../analysis/resolve/resolution.js';
import type { ImportFact } from '../model/facts.js';
import type { SourceFile } from './collect-facts.js';

/**
 * An analysed file's import of a source file the analysis does not read: one under
 * `paths.ignore`, or a symbolic link, which AUREUS never follows, or a path inside a linked
 * folder or a submodule (another repository's commit, whose files this one does not hold),
 * then `to` is the link or the submodule. `through` names the ignored
 * files between them, in order, when the analysed file reaches it through other ignored code:
 * what an ignored file imports runs as surely as what it is.
 */
export interface UnreadImport {
  readonly from: string;
  readonly to: string;
  readonly why: UnreadSource;
  readonly through: readonly string[];
}

export type UnreadSource = 'ignored' | 'symlink' | 'submodule';

/** A link or a submodule the snapshot tracks, by path: imports into it read nothing. */
export type LinkedEntries = ReadonlyMap<string, 'symlink' | 'submodule'>;

/** A snapshot file the analysis leaves unread, and why. */
export interface UnreadFile {
  readonly why: UnreadSource;
  readonly file: SourceFile;
}

/** One import and the files it resolves to (none when it reaches no file the snapshot holds). */
export interface ResolvedImport {
  readonly specifier: string;
  readonly files: readonly string[];
  /** When it reaches no file: the paths its resolver looked for it at (ImportCandidates). */
  readonly tried: readonly string[];
}

/**
 * The repository paths a language's resolver looked for an import at (folders may end in
 * `/`): a TS/JS alias's or baseUrl's targets, a Python module's path under each root. One
 * inside a linked folder or a submodule is where the import runs code the snapshot lacks.
 */
export type ImportCandidates = (from: string, specifier: string) => readonly string[];

/**
 * The imports of each of `files` (ignored source files), resolved: read and parsed for their
 * imports only, never priced nor critiqued.
 */
export type ImportsOfUnread = (
  files: readonly SourceFile[],
) => Promise<ReadonlyMap<string, readonly ResolvedImport[]>>;

/**
 * Every unread file the analysed code reaches, from each analysed importer: directly, or
 * through ignored files, whose imports are followed (their own files read for nothing else) as
 * far as they lead. Without following them, an edit of a file that only ignored code imports
 * would run in the product unjudged. Links are never followed.
 */
export async function unreadImports(
  imports: ReadonlyMap<string, readonly ImportFact[]>,
  resolve: ResolveImport,
  candidates: ImportCandidates,
  unread: ReadonlyMap<string, UnreadFile>,
  linked: LinkedEntries,
  importsOfUnread: ImportsOfUnread,
): Promise<UnreadImport[]> {
  if (unread.size === 0 && linked.size === 0) return [];
  const found: UnreadImport[] = [];
  // For each ignored file reached, the analysed importers that reach it and the way there.
  const ways = new Map<string, Map<string, readonly string[]>>();
  let frontier = new Set<string>();
  const reach = (from: string, to: string, through: readonly string[]) => {
    const why = unread.get(to)?.why ?? linked.get(to);
    if (why === undefined) return;
    const known = ways.get(to) ?? new Map<string, readonly string[]>();
    if (known.has(from)) return;
    known.set(from, through);
    ways.set(to, known);
    found.push({ from, to, why, through });
    if (why === 'ignored') frontier.add(to);
  };
  for (const [from, list] of imports) {
    const resolved = list.map(({ specifier }): ResolvedImport => {
      const files = resolvedFiles(resolve(from, specifier));
      const tried = files.length === 0 && linked.size > 0 ? candidates(from, specifier) : [];
      return { specifier, files, tried };
    });
    for (const to of targetsOf(from, resolved, linked)) reach(from, to, []);
  }
  // Each ignored file's imports, read once however many importers reach it.
  const importedBy = new Map<string, readonly string[]>();
  while (frontier.size > 0) {
    const level = [...frontier];
    frontier = new Set();
    const files = level.flatMap((path) => {
      const target = unread.get(path);
      return target === undefined || importedBy.has(path) ? [] : [target.file];
    });
    if (files.length > 0) {
      const read = await importsOfUnread(files);
      for (const { path } of files)
        importedBy.set(path, [...targetsOf(path, read.get(path) ?? [], linked)]);
    }
    for (const path of level) {
      for (const to of importedBy.get(path) ?? []) {
        for (const [from, through] of ways.get(path) ?? []) reach(from, to, [...through, path]);
      }
    }
  }
  return found;
}

/**
 * The files a file's imports reach, and for an import that reaches no file, the link or
 * submodule on its way: `./lib/x`, an alias `@lib/x` whose target is `src/lib/x`, Python's
 * `lib.x`, with `lib` a linked folder or a submodule, run code the snapshot does not hold.
 * The way is the relative path, and every path the resolver looked at (`tried`).
 */
function targetsOf(
  from: string,
  imports: readonly ResolvedImport[],
  linked: LinkedEntries,
): Set<string> {
  const targets = new Set<string>();
  for (const { specifier, files, tried } of imports) {
    for (const file of files) targets.add(file);
    if (files.length > 0 || linked.size === 0) continue;
    const relative = /^\.\.?\//.test(specifier) ? [posix.join(posix.dirname(from), specifier)] : [];
    for (const path of [...relative, ...tried]) {
      const entry = linkOnTheWay(posix.normalize(path).replace(/\/+$/, ''), linked);
      if (entry !== undefined) targets.add(entry);
    }
  }
  return targets;
}

function linkOnTheWay(path: string, linked: LinkedEntries): string | undefined {
  for (let at = path; at !== '.' && at !== '/' && !at.startsWith('../'); at = posix.dirname(at)) {
    if (linked.has(at)) return at;
  }
  return undefined;
}
