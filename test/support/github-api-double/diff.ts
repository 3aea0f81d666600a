import { gitText, nulRecords, tryGitText } from './git.js';

/** The id git gives the empty tree: the "before" of a root commit. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export type FileStatus = 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed';

export interface DiffFile {
  readonly filename: string;
  readonly previousFilename?: string;
  readonly status: FileStatus;
  readonly additions: number;
  readonly deletions: number;
  /** The blob after the change; for a removed file, the blob that was removed. */
  readonly sha: string;
  /** The hunks, from the first `@@`; absent for binary files and changes without hunks. */
  readonly patch?: string;
}

const STATUS: Record<string, FileStatus> = {
  A: 'added',
  D: 'removed',
  M: 'modified',
  R: 'renamed',
  C: 'copied',
  T: 'changed',
};

// Same options for every call, so the three listings come out in the same order.
const DIFF_OPTIONS = ['--no-color', '--no-ext-diff', '--no-textconv', '-M'];

interface RawEntry {
  status: FileStatus;
  oldSha: string;
  newSha: string;
  path: string;
  previousPath?: string;
}

function parseRaw(text: string): RawEntry[] {
  const tokens = nulRecords(text);
  const entries: RawEntry[] = [];
  for (let i = 0; i < tokens.length; ) {
    const header = tokens[i++] ?? '';
    const [, , oldSha = '', newSha = '', code = ''] = header.slice(1).split(' ');
    const status = STATUS[code.charAt(0)] ?? 'modified';
    if (status === 'renamed' || status === 'copied') {
      const previousPath = tokens[i++] ?? '';
      const path = tokens[i++] ?? '';
      entries.push({ status, oldSha, newSha, path, previousPath });
    } else {
      entries.push({ status, oldSha, newSha, path: tokens[i++] ?? '' });
    }
  }
  return entries;
}

function parseNumstat(text: string): { additions: number; deletions: number }[] {
  const tokens = nulRecords(text);
  const counts: { additions: number; deletions: number }[] = [];
  for (let i = 0; i < tokens.length; ) {
    const [added = '-', deleted = '-', path = ''] = (tokens[i++] ?? '').split('\t');
    if (path === '') i += 2; // a rename or copy: the two paths follow as their own records
    // Binary files count `-`; GitHub reports 0 for them.
    counts.push({
      additions: added === '-' ? 0 : Number(added),
      deletions: deleted === '-' ? 0 : Number(deleted),
    });
  }
  return counts;
}

/** Splits `git diff` output into one chunk per file and keeps each chunk's hunks. */
function parsePatches(text: string): (string | undefined)[] {
  const patches: (string | undefined)[] = [];
  let current: string[] | undefined;
  let inHunks = false;
  const flush = () => {
    if (current !== undefined) patches.push(inHunks ? current.join('\n') : undefined);
  };
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop(); // the newline that ends the output
  for (const line of lines) {
    if (line.startsWith('diff --git ')) {
      flush();
      current = [];
      inHunks = false;
    } else if (current !== undefined && (inHunks || line.startsWith('@@'))) {
      // Hunk lines all start with ' ', '+', '-', '\\' or '@@', so no content line can look
      // like the next file's `diff --git` header.
      inHunks = true;
      current.push(line);
    }
  }
  flush();
  return patches;
}

const cache = new Map<string, readonly DiffFile[]>();

/** The files changed from one tree-ish to another, with GitHub's per-file fields. */
export function diffFiles(gitDir: string, from: string, to: string): readonly DiffFile[] {
  const key = `${gitDir}\0${from}\0${to}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const raw = parseRaw(
    gitText(gitDir, ['diff', ...DIFF_OPTIONS, '--raw', '-z', '--no-abbrev', from, to]),
  );
  const counts = parseNumstat(
    gitText(gitDir, ['diff', ...DIFF_OPTIONS, '--numstat', '-z', from, to]),
  );
  const patches = parsePatches(
    gitText(gitDir, ['diff', ...DIFF_OPTIONS, '--full-index', from, to]),
  );
  if (counts.length !== raw.length || patches.length !== raw.length) {
    throw new Error(
      `github-api-double: git diff listings disagree (${raw.length} raw, ${counts.length} numstat, ${patches.length} patches)`,
    );
  }
  const files = raw.map((entry, index): DiffFile => {
    const patch = patches[index];
    return {
      filename: entry.path,
      ...(entry.previousPath === undefined ? {} : { previousFilename: entry.previousPath }),
      status: entry.status,
      additions: counts[index]?.additions ?? 0,
      deletions: counts[index]?.deletions ?? 0,
      sha: entry.status === 'removed' ? entry.oldSha : entry.newSha,
      ...(patch === undefined ? {} : { patch }),
    };
  });
  cache.set(key, files);
  return files;
}

export function mergeBase(gitDir: string, a: string, b: string): string | undefined {
  return tryGitText(gitDir, ['merge-base', a, b])?.trim() || undefined;
}

/** Commits reachable from `to` but not from `from`, oldest first (GitHub's compare order). */
export function commitsBetween(gitDir: string, from: string, to: string): string[] {
  const text = gitText(gitDir, ['rev-list', '--reverse', `${from}..${to}`]).trim();
  return text === '' ? [] : text.split('\n');
}

export interface PatchLine {
  /** 1-based, counting from the line below the first `@@` (GitHub's `position`). */
  readonly position: number;
  readonly kind: ' ' | '+' | '-' | '@' | '\\';
  readonly oldLine: number | null;
  readonly newLine: number | null;
  /** Index of the hunk this line belongs to. */
  readonly hunk: number;
}

/** Maps a file's patch to positions and line numbers, for review comments. */
export function patchLines(patch: string): PatchLine[] {
  const lines: PatchLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  let hunk = -1;
  patch.split('\n').forEach((text, index) => {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (header !== null) {
      hunk += 1;
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      lines.push({ position: index, kind: '@', oldLine: null, newLine: null, hunk });
      return;
    }
    const kind = text.charAt(0);
    if (kind === '+') {
      lines.push({ position: index, kind, oldLine: null, newLine: newLine++, hunk });
    } else if (kind === '-') {
      lines.push({ position: index, kind, oldLine: oldLine++, newLine: null, hunk });
    } else if (kind === '\\') {
      lines.push({ position: index, kind, oldLine: null, newLine: null, hunk });
    } else {
      lines.push({ position: index, kind: ' ', oldLine: oldLine++, newLine: newLine++, hunk });
    }
  });
  return lines;
}
