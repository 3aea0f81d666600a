import { lstat, mkdir, realpath, stat } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { AureusError } from '../model/errors.js';
import { writeFileAtomic, writeNewFileAtomic } from './atomic-write.js';
import { environmentError } from './environment-error.js';
import { errnoCode } from './errno-code.js';
import { fileKind } from './file-kind.js';
import { isInside } from './is-inside.js';

interface Boundary {
  readonly folder: string;
  readonly name: string;
}

/** Where an output file may go, and how the user named its path (for the fix). */
export interface OutputPlace {
  /** `--output`, `the sarif-file input`: what the user changes to write elsewhere. */
  readonly setting: string;
  /** A folder the file must stay inside, links resolved (the Action's workspace). */
  readonly within?: Boundary;
  /** The checkout the path may lie in: a missing folder is never created through its links. */
  readonly repository?: string;
}

/**
 * Writes a report the user asked for (SARIF, `--output`, the Action's report file) without ever
 * writing through a link: the path must be a regular file or nothing yet, in a folder that
 * exists or is created (see makeFolders; with `within`, it must resolve inside that folder), and the file is replaced atomically
 * beside itself (temporary file, rename), so even a link swapped in meanwhile is replaced, not
 * followed. Every refusal and every failure of the disk is an AureusError that names the path.
 */
export async function writeOutputFile(
  path: string,
  data: string | Uint8Array,
  place: OutputPlace,
): Promise<void> {
  await checkOutputPath(path, place);
  try {
    await writeFileAtomic(path, data);
  } catch (error) {
    throw environmentError(error, { verb: 'write', path }) ?? error;
  }
}

/**
 * Writes a file that must not exist yet, as writeOutputFile writes (no link followed, folders
 * made as it makes them), but never replacing anything: false when the name is taken, even by
 * a file or link that appears meanwhile.
 */
export async function writeNewOutputFile(
  path: string,
  data: string | Uint8Array,
  place: OutputPlace,
): Promise<boolean> {
  if ((await lstatOf(path)) !== undefined) return false;
  await checkOutputPath(path, place);
  try {
    return await writeNewFileAtomic(path, data);
  } catch (error) {
    throw environmentError(error, { verb: 'write', path }) ?? error;
  }
}

async function checkOutputPath(path: string, place: OutputPlace): Promise<void> {
  const elsewhere = `remove it, or point ${place.setting} at another path.`;
  const existing = await lstatOf(path);
  if (existing?.isSymbolicLink())
    throw new AureusError(
      `${path} is a symbolic link; AUREUS never writes through a link.`,
      elsewhere,
    );
  if (existing !== undefined && !existing.isFile())
    throw new AureusError(`${path} is ${fileKind(existing)}, not a regular file.`, elsewhere);
  const folder = dirname(path);
  const { within } = place;
  // Before any folder is made: none is made outside the boundary either.
  if (within !== undefined && !isInside(resolve(path), resolve(within.folder)))
    throw outside(path, within, place);
  if (existing === undefined) await makeFolders(folder, place);
  const folderStats = await stat(folder).catch(() => undefined);
  if (folderStats === undefined || !folderStats.isDirectory())
    throw new AureusError(
      `cannot write ${path}: the folder ${folder} does not exist.`,
      `create it, or point ${place.setting} at a file in a folder that exists.`,
    );
  if (within !== undefined) await checkWithin(path, folder, within, place);
}

/**
 * Creates the folders of `folder` that do not exist yet, one at a time, as most tools do. Never
 * through a link the checkout holds: a committed `reports -> /etc` would turn `reports/x/` into a
 * folder made elsewhere on the machine, so every folder on the way inside the checkout must be
 * a folder of its own. Links outside it (a home folder elsewhere) are the user's, and followed.
 */
async function makeFolders(folder: string, place: OutputPlace): Promise<void> {
  const missing: string[] = [];
  let reached = resolve(folder);
  while ((await lstatOf(reached)) === undefined && dirname(reached) !== reached) {
    missing.unshift(reached);
    reached = dirname(reached);
  }
  if (missing.length === 0) return;
  for (const step of foldersInside(place.repository ?? place.within?.folder, reached)) {
    if ((await lstatOf(step))?.isSymbolicLink() === true)
      throw new AureusError(
        `cannot create the folder ${folder}: ${step} is a symbolic link, and AUREUS creates no folder through a link.`,
        `create the folder yourself, or point ${place.setting} at a path with no symbolic link on the way.`,
      );
  }
  const last = await stat(reached).catch(() => undefined);
  if (last?.isDirectory() !== true)
    throw new AureusError(
      `cannot create the folder ${folder}: ${reached} is ${last === undefined ? 'a link to nothing' : fileKind(last)}, not a folder.`,
      `point ${place.setting} at a path whose folders are folders.`,
    );
  for (const step of missing)
    await mkdir(step).catch((error: unknown) => {
      if (errnoCode(error) === 'EEXIST') return;
      throw environmentError(error, { verb: 'create the folder', path: step }) ?? error;
    });
}

/** The folders from inside `checkout` down to `path`, or none when `path` is not inside it. */
function foldersInside(checkout: string | undefined, path: string): string[] {
  if (checkout === undefined || !isInside(path, resolve(checkout))) return [];
  const parts = relative(resolve(checkout), path)
    .split(sep)
    .filter((part) => part !== '');
  return parts.map((_, index) => resolve(checkout, ...parts.slice(0, index + 1)));
}

/** The entry itself (a link is not followed), or undefined when nothing is there. */
async function lstatOf(path: string) {
  return lstat(path).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return undefined;
    throw environmentError(error, { verb: 'read', path }) ?? error;
  });
}

/** The file's folder, links resolved, must be the boundary folder or inside it. */
async function checkWithin(
  path: string,
  folder: string,
  within: Boundary,
  place: OutputPlace,
): Promise<void> {
  const [realFolder, realWithin] = await Promise.all([realpath(folder), realpath(within.folder)]);
  if (isInside(realFolder, realWithin)) return;
  throw outside(path, within, place);
}

function outside(path: string, within: Boundary, place: OutputPlace): AureusError {
  return new AureusError(
    `${path} is outside ${within.name} (or a folder on its way links out of it); AUREUS writes only inside ${within.name}.`,
    `point ${place.setting} at a path inside ${within.name}, with no symbolic link on the way.`,
  );
}
