import { runGit } from './git-runner.js';
import { openRepository } from './repository.js';

/** The lines one commit adds and deletes in one file (the diff against its first parent). */
export interface FileLines {
  readonly path: string;
  readonly added: readonly string[];
  readonly deleted: readonly string[];
}

/** One commit of the first-parent history, as `aureus learn` reads it. */
export interface CommitDiff {
  readonly sha: string;
  /** Committer time, in milliseconds. */
  readonly time: number;
  readonly subject: string;
  readonly files: readonly FileLines[];
}

/**
 * The most commits read: the history `aureus learn` learns from is the newest ones. More would
 * keep every added and deleted line of a long history in memory at once; the answer says when
 * older commits were left out.
 */
export const MAX_HISTORY_COMMITS = 2000;

/**
 * The most bytes of history read: 2,000 commits of lockfile churn or vendored bundles can hold
 * gigabytes of diff. Past it the newest commits read whole are learned from, and the answer says
 * the history was cut, as for the commit count.
 */
export const MAX_HISTORY_BYTES = 64 * 1024 * 1024;

/**
 * The first-parent history of HEAD, oldest first, each commit with the lines it adds and
 * deletes per file against its first parent (a merge: the whole branch it brings in). One
 * `git log -p -U0` and no blame: learning matches lines by their text. Renames are not followed,
 * so a renamed file's lines count as deleted and added.
 */
export async function readCommitHistory(
  root: string,
  maxBytes = MAX_HISTORY_BYTES,
): Promise<{ commits: CommitDiff[]; cut: boolean }> {
  const { cwd, shallow } = await openRepository(root);
  const head = await runGit(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {
    okExitCodes: [0, 1],
  });
  if (head.exitCode !== 0) return { commits: [], cut: false };
  const log = await runGit(
    cwd,
    [
      'log',
      '--first-parent',
      '--diff-merges=first-parent',
      '--no-renames',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '-U0',
      '-p',
      `--max-count=${MAX_HISTORY_COMMITS + 1}`,
      '--format=%x00%H %ct %s',
      'HEAD',
    ],
    { maxStdoutBytes: maxBytes },
  );
  const text = log.stdout.toString('utf8');
  // A cut output ends inside a commit: only the commits read whole are kept.
  const whole = log.truncated === true ? text.slice(0, Math.max(0, text.lastIndexOf('\0'))) : text;
  const commits = parseLog(whole);
  const cut = commits.length > MAX_HISTORY_COMMITS || shallow || log.truncated === true;
  return { commits: commits.slice(0, MAX_HISTORY_COMMITS).reverse(), cut };
}

interface OpenFile {
  path: string;
  added: string[];
  deleted: string[];
}

/** `git log -p -U0` output, newest first: a NUL opens each commit's header line. */
function parseLog(text: string): CommitDiff[] {
  const commits: CommitDiff[] = [];
  for (const chunk of text.split('\0').slice(1)) {
    const [header = '', ...lines] = chunk.split('\n');
    const [sha = '', time = '0', ...subject] = header.split(' ');
    const files: OpenFile[] = [];
    let file: OpenFile | null = null;
    let inHeader = false;
    let oldPath = '';
    for (const line of lines) {
      if (line.startsWith('diff --git ')) {
        inHeader = true;
        file = null;
      } else if (inHeader && line.startsWith('--- ')) oldPath = pathOf(line.slice(4));
      else if (inHeader && line.startsWith('+++ ')) {
        const newPath = pathOf(line.slice(4));
        file = { path: newPath === '/dev/null' ? oldPath : newPath, added: [], deleted: [] };
        files.push(file);
      } else if (line.startsWith('@@')) inHeader = false;
      else if (!inHeader && file !== null && line.startsWith('+')) file.added.push(line.slice(1));
      else if (!inHeader && file !== null && line.startsWith('-')) file.deleted.push(line.slice(1));
    }
    commits.push({ sha, time: Number(time) * 1000, subject: subject.join(' '), files });
  }
  return commits;
}

/** `a/src/x.ts` → `src/x.ts`; git quotes unusual names, kept quoted (consistent across commits). */
function pathOf(shown: string): string {
  return /^"?[ab]\//.test(shown) ? shown.replace(/^("?)[ab]\//, '$1') : shown;
}
