import { type ResolveImport, resolvedFiles } from '../analysis/resolve/resolution.js';
import type { ImportFact } from '../model/facts.js';
import type { SourceFile } from './collect-facts.js';

/**
 * An analysed file's import of a source file the analysis does not read: one under
 * `paths.ignore`, or a symbolic link, which AUREUS never follows. `through` names the ignored
 * files between them, in order, when the analysed file reaches it through other ignored code:
 * what an ignored file imports runs as surely as what it is.
 */
export interface UnreadImport {
  readonly from: string;
  readonly to: string;
  readonly why: UnreadSource;
  readonly through: readonly string[];
}

export type UnreadSource = 'ignored' | 'symlink';

/** A snapshot file the analysis leaves unread, and why. */
export interface UnreadFile {
  readonly why: UnreadSource;
  readonly file: SourceFile;
}

/**
 * The files each of `files` (ignored source files) imports, resolved: read and parsed for
 * their imports only, never priced nor critiqued.
 */
export type ImportsOfUnread = (
  files: readonly SourceFile[],
) => Promise<ReadonlyMap<string, readonly string[]>>;

/**
 * Every unread file the analysed code reaches, from each analysed importer: directly, or
 * through ignored files, whose imports are followed (their own files read for nothing else) as
 * far as they lead. Without following them, an edit of a file that only ignored code imports
 * would run in the product unjudged. Links are never followed.
 */
export async function unreadImports(
  imports: ReadonlyMap<string, readonly ImportFact[]>,
  resolve: ResolveImport,
  unread: ReadonlyMap<string, UnreadFile>,
  importsOfUnread: ImportsOfUnread,
): Promise<UnreadImport[]> {
  if (unread.size === 0) return [];
  const found: UnreadImport[] = [];
  // For each ignored file reached, the analysed importers that reach it and the way there.
  const ways = new Map<string, Map<string, readonly string[]>>();
  let frontier = new Set<string>();
  const reach = (from: string, to: string, through: readonly string[]) => {
    const target = unread.get(to);
    if (target === undefined) return;
    const known = ways.get(to) ?? new Map<string, readonly string[]>();
    if (known.has(from)) return;
    known.set(from, through);
    ways.set(to, known);
    found.push({ from, to, why: target.why, through });
    if (target.why === 'ignored') frontier.add(to);
  };
  for (const [from, list] of imports) {
    const targets = new Set(
      list.flatMap(({ specifier }) => resolvedFiles(resolve(from, specifier))),
    );
    for (const to of targets) reach(from, to, []);
  }
  // Each ignored file's imports, read once however many importers reach it.
  const targetsOf = new Map<string, readonly string[]>();
  while (frontier.size > 0) {
    const level = [...frontier];
    frontier = new Set();
    const files = level.flatMap((path) => {
      const target = unread.get(path);
      return target === undefined || targetsOf.has(path) ? [] : [target.file];
    });
    if (files.length > 0) {
      const read = await importsOfUnread(files);
      for (const { path } of files) targetsOf.set(path, read.get(path) ?? []);
    }
    for (const path of level) {
      for (const to of targetsOf.get(path) ?? []) {
        for (const [from, through] of ways.get(path) ?? []) reach(from, to, [...through, path]);
      }
    }
  }
  return found;
}
