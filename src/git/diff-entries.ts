import { AureusError } from '../model/errors.js';
import { type GitPath, toGitPath } from './git-path.js';

/** One line of `git diff --raw -z --no-abbrev`: both sides' modes and object ids, and the paths. */
export interface DiffEntry {
  /** git's status letter: A C D M R T U X. */
  readonly letter: string;
  /** Similarity (0–100) for R and C; git writes it right after the letter, e.g. R086. */
  readonly score?: number;
  readonly srcMode: string;
  readonly dstMode: string;
  readonly srcSha: string;
  readonly dstSha: string;
  /** Where the content came from: the old path of a rename or copy, else the path itself. */
  readonly srcPath: GitPath;
  /** Where the content is now (equal to srcPath except for renames and copies). */
  readonly dstPath: GitPath;
}

const NUL = 0;

/**
 * The `git diff` options every diff AUREUS parses here uses:
 * - `--raw -z --no-abbrev`: modes, full object ids and byte-exact paths, no quoting.
 * - `--ignore-submodules=dirty`: a submodule counts when its commit moves, not when files
 *   inside its own checkout are edited (that is another repository's change).
 * - `--no-ext-diff --no-textconv --no-color --no-relative`: user configuration cannot swap in
 *   another program, change the output or limit it to a subfolder.
 */
export const RAW_DIFF_OPTIONS = [
  '--raw',
  '-z',
  '--no-abbrev',
  '--ignore-submodules=dirty',
  '--no-ext-diff',
  '--no-textconv',
  '--no-color',
  '--no-relative',
] as const;

/**
 * Parses `git diff --raw -z` output. With -z every field ends in NUL and paths are written
 * byte for byte (no quoting), so names with spaces, quotes, newlines or a leading `-` survive:
 *
 *   :<srcMode> <dstMode> <srcSha> <dstSha> <letter>[score] NUL <path> NUL [<dstPath> NUL]
 *
 * Anything else is refused: a misread diff must fail rather than drop files.
 */
export function parseRawDiff(output: Buffer): DiffEntry[] {
  const fields = splitNul(output);
  const entries: DiffEntry[] = [];
  let index = 0;
  while (index < fields.length) {
    const header = fields[index]?.toString('latin1') ?? '';
    const match = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])(\d{0,3})$/.exec(header);
    if (!match) throw unreadable(`unexpected field "${header.slice(0, 80)}"`);
    const [, srcMode = '', dstMode = '', srcSha = '', dstSha = '', letter = '', score = ''] = match;
    const pathCount = letter === 'R' || letter === 'C' ? 2 : 1;
    const first = fields[index + 1];
    const second = pathCount === 2 ? fields[index + 2] : first;
    if (first === undefined || second === undefined) throw unreadable('a path is missing');
    entries.push({
      letter,
      ...(score === '' ? {} : { score: Number(score) }),
      srcMode,
      dstMode,
      srcSha,
      dstSha,
      srcPath: toGitPath(first),
      dstPath: toGitPath(second),
    });
    index += 1 + pathCount;
  }
  return entries;
}

/** The NUL-terminated fields of `output`; a missing final NUL still ends the last field. */
export function splitNul(output: Buffer): Buffer[] {
  const fields: Buffer[] = [];
  let start = 0;
  while (start < output.length) {
    let end = output.indexOf(NUL, start);
    if (end === -1) end = output.length;
    fields.push(output.subarray(start, end));
    start = end + 1;
  }
  return fields;
}

function unreadable(detail: string): AureusError {
  return new AureusError(
    `git diff printed output AUREUS could not parse (${detail}).`,
    'report this with your git version (git --version); AUREUS expects `git diff --raw -z` output.',
  );
}
