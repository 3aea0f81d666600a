import { lstat, realpath, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { AureusError } from '../model/errors.js';
import { writeFileAtomic } from './atomic-write.js';
import { environmentError } from './environment-error.js';
import { errnoCode } from './errno-code.js';
import { fileKind } from './file-kind.js';
import { isInside } from './is-inside.js';

/** Where an output file may go, and how the user named its path (for the fix). */
export interface OutputPlace {
  /** `--output`, `the sarif-file input`: what the user changes to write elsewhere. */
  readonly setting: string;
  /** A folder the file must stay inside, links resolved (the Action's workspace). */
  readonly within?: { readonly folder: string; readonly name: string };
}

/**
 * Writes a report the user asked for (SARIF, `--output`, the Action's report file) without ever
 * writing through a link: the path must be a regular file or nothing yet, in a folder that
 * exists (and, with `within`, resolves inside that folder), and the file is replaced atomically
 * beside itself (temporary file, rename), so even a link swapped in meanwhile is replaced, not
 * followed. Every refusal and every failure of the disk is an AureusError that names the path.
 */
export async function writeOutputFile(
  path: string,
  data: string,
  place: OutputPlace,
): Promise<void> {
  await checkOutputPath(path, place);
  try {
    await writeFileAtomic(path, data);
  } catch (error) {
    throw environmentError(error, { verb: 'write', path }) ?? error;
  }
}

async function checkOutputPath(path: string, place: OutputPlace): Promise<void> {
  const elsewhere = `remove it, or point ${place.setting} at another path.`;
  const existing = await lstat(path).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw environmentError(error, { verb: 'write', path }) ?? error;
  });
  if (existing?.isSymbolicLink())
    throw new AureusError(
      `${path} is a symbolic link; AUREUS never writes through a link.`,
      elsewhere,
    );
  if (existing !== undefined && !existing.isFile())
    throw new AureusError(`${path} is ${fileKind(existing)}, not a regular file.`, elsewhere);
  const folder = dirname(path);
  const folderStats = await stat(folder).catch(() => undefined);
  if (folderStats === undefined || !folderStats.isDirectory())
    throw new AureusError(
      `cannot write ${path}: the folder ${folder} does not exist.`,
      `create it, or point ${place.setting} at a file in a folder that exists.`,
    );
  if (place.within !== undefined) await checkWithin(path, folder, place);
}

/** The file's folder, links resolved, must be the boundary folder or inside it. */
async function checkWithin(path: string, folder: string, place: OutputPlace): Promise<void> {
  const within = place.within;
  if (within === undefined) return;
  const [realFolder, realWithin] = await Promise.all([realpath(folder), realpath(within.folder)]);
  if (isInside(resolve(path), resolve(within.folder)) && isInside(realFolder, realWithin)) return;
  throw new AureusError(
    `${path} is outside ${within.name} (or a folder on its way links out of it); AUREUS writes only inside ${within.name}.`,
    `point ${place.setting} at a path inside ${within.name}, with no symbolic link on the way.`,
  );
}
