import { lstat, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { trackedPathsUnder } from '../git/list-files.js';
import { writeFileAtomic } from './atomic-write.js';
import { errnoCode } from './errno-code.js';
import { LocalStoreRefused } from './local-store-refused.js';

/** Absolute paths of everything AUREUS keeps in a repository's `.aureus/` folder. */
export interface StorePaths {
  /** `.aureus/`: committed, reviewed like code. */
  dir: string;
  policy: string;
  /** `.aureus/local/`: this machine's runs only; never committed. */
  localDir: string;
  /**
   * This machine's runs (checks, commits, simplifications, builder runs): its run history. The
   * authoritative ledger is written by CI or the App.
   */
  ledger: string;
}

export function storePaths(root: string): StorePaths {
  const dir = resolve(root, '.aureus');
  const localDir = join(dir, 'local');
  return {
    dir,
    policy: join(dir, 'policy.yaml'),
    localDir,
    ledger: join(localDir, 'ledger.jsonl'),
  };
}

/**
 * `.aureus/local/` when it may hold this machine's ledger and notes: `.aureus` and it are real
 * folders (or do not exist yet) and the repository tracks nothing there. A checkout decides what
 * its tracked paths hold: a tracked ledger or note would be read as AUREUS's own memory, and
 * appending to it would change the repository; a committed link would send AUREUS's writes
 * anywhere on this machine. Throws LocalStoreRefused, saying which, otherwise.
 */
export async function checkedLocalDir(root: string): Promise<string> {
  const paths = storePaths(root);
  await refuseOddFolder(paths.dir);
  await refuseOddFolder(paths.localDir);
  const tracked = (await trackedPathsUnder(root, '.aureus')).filter(
    (path) => path === '.aureus' || path === '.aureus/local' || path.startsWith('.aureus/local/'),
  );
  if (tracked.length > 0) {
    const more = tracked.length > 1 ? ` and ${tracked.length - 1} more` : '';
    throw new LocalStoreRefused(
      `this repository tracks ${tracked[0]}${more}, but .aureus/local/ holds this machine's ledger: AUREUS neither reads nor writes tracked files there.`,
      'untrack the folder (git rm -r --cached .aureus/local) and commit that.',
    );
  }
  return paths.localDir;
}

/**
 * Creates `.aureus/local/` (after checkedLocalDir) and makes it ignore itself, so local ledgers
 * are never committed and the user's root `.gitignore` stays untouched. Returns its path.
 */
export async function ensureLocalDir(root: string): Promise<string> {
  const localDir = await checkedLocalDir(root);
  await mkdir(localDir, { recursive: true });
  const gitignore = join(localDir, '.gitignore');
  if (!(await exists(gitignore))) {
    await writeFileAtomic(gitignore, '*\n');
  }
  return localDir;
}

async function refuseOddFolder(path: string): Promise<void> {
  const stats = await lstat(path).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (stats === undefined || stats.isDirectory()) return;
  const what = stats.isSymbolicLink() ? 'a symbolic link' : 'not a folder';
  throw new LocalStoreRefused(
    `${path} is ${what}; AUREUS keeps this machine's ledger in a real folder there and follows no links.`,
    `replace ${path} with a folder (or delete it and let AUREUS create it).`,
  );
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw error;
  }
}
