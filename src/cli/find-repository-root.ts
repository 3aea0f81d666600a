import { lstat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/**
 * The nearest folder at or above `start` that holds `.aureus` or `.git`, so commands work from
 * any subfolder of a repository; `start` itself when there is none.
 */
export async function findRepositoryRoot(start: string): Promise<string> {
  let folder = resolve(start);
  for (;;) {
    if ((await exists(join(folder, '.aureus'))) || (await exists(join(folder, '.git'))))
      return folder;
    const parent = dirname(folder);
    if (parent === folder) return resolve(start);
    folder = parent;
  }
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}
