import { lstat } from 'node:fs/promises';
import { relative } from 'node:path';
import { errnoCode } from '../memory/errno-code.js';
import { storePaths } from '../memory/store-paths.js';
import { AureusError } from '../model/errors.js';

/**
 * Refuses a `.aureus` that is a symbolic link or not a folder, before `aureus init` reads or
 * writes the policy in it. A cloned repository could commit `.aureus` as a link: lstat on
 * `.aureus/policy.yaml` follows it (only the last part of a path is not followed), so the
 * policy would be read from, shown from and written to wherever it leads. An absent `.aureus`
 * is fine: init creates it.
 */
export async function refuseLinkedStore(root: string, cwd: string): Promise<void> {
  const dir = storePaths(root).dir;
  const stats = await lstat(dir).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (stats === undefined || stats.isDirectory()) return;
  const shown = relative(cwd, dir) || dir;
  throw new AureusError(
    `${shown} is ${stats.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; AUREUS neither reads nor writes through links.`,
    `replace ${shown} with a folder (the policy inside it), then run aureus init again.`,
  );
}
