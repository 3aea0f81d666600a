import { lstat, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AureusError } from '../model/errors.js';
import { writeFileAtomic } from './atomic-write.js';
import { errnoCode } from './errno-code.js';

/** Absolute paths of everything AUREUS keeps in a repository's `.aureus/` folder. */
export interface StorePaths {
  /** `.aureus/`: committed, reviewed like code. */
  dir: string;
  policy: string;
  /** `.aureus/local/`: this machine's runs only; never committed. */
  localDir: string;
  /** Ledger of local (hook) runs; the authoritative ledger is written by CI or the App. */
  ledger: string;
  history: string;
  patterns: string;
  decisions: string;
}

export function storePaths(root: string): StorePaths {
  const dir = resolve(root, '.aureus');
  const localDir = join(dir, 'local');
  return {
    dir,
    policy: join(dir, 'policy.yaml'),
    localDir,
    ledger: join(localDir, 'ledger.jsonl'),
    history: join(localDir, 'history.jsonl'),
    patterns: join(dir, 'patterns.jsonl'),
    decisions: join(dir, 'decisions.jsonl'),
  };
}

/**
 * Creates `.aureus/local/` and makes it ignore itself, so local ledgers are never committed
 * and the user's root `.gitignore` stays untouched. Returns the folder's path.
 */
export async function ensureLocalDir(root: string): Promise<string> {
  const paths = storePaths(root);
  // A cloned repository could ship `.aureus` or `.aureus/local` as a symlink to send our
  // writes elsewhere on this machine; refuse instead of following it.
  await refuseSymlink(paths.dir);
  await refuseSymlink(paths.localDir);
  await mkdir(paths.localDir, { recursive: true });
  const gitignore = join(paths.localDir, '.gitignore');
  if (!(await exists(gitignore))) {
    await writeFileAtomic(gitignore, '*\n');
  }
  return paths.localDir;
}

async function refuseSymlink(path: string): Promise<void> {
  const stats = await lstat(path).catch(() => undefined);
  if (stats?.isSymbolicLink()) {
    throw new AureusError(
      `${path} is a symbolic link; AUREUS keeps its store in a real folder and does not follow links there`,
      `replace ${path} with a folder (or delete it and let AUREUS create it)`,
    );
  }
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
