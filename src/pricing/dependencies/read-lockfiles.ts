import { isNpmLockfile } from '../lockfiles.js';
import type { PricedFile, PricedSide } from '../priced-files.js';
import { type NpmLockfile, readNpmLockfile } from './npm-lockfile.js';
import { installedNames, type LockfileChange } from './npm-transitive.js';

/**
 * The npm lockfiles the change adds or modifies, both versions read. A head that cannot be
 * read leaves the lockfile out (its manifests' dependencies then count 1 package each); a base
 * that cannot be read counts as empty, so every package it holds is new. Each is a note.
 */
export function readLockfileChanges(
  files: readonly PricedFile[],
  notes: string[],
): LockfileChange[] {
  const changes: LockfileChange[] = [];
  for (const { path, base, head } of files) {
    if (!isNpmLockfile(path) || head === null) continue;
    const headLock = lockfileOf(head, path, 'head', notes);
    if (headLock === null) continue;
    const baseLock =
      base === null ? new Map() : (lockfileOf(base, path, 'base', notes) ?? new Map());
    changes.push({
      path,
      head: headLock,
      base: baseLock,
      baseNames: installedNames(baseLock),
      claimed: new Set(),
    });
  }
  return changes;
}

function lockfileOf(
  side: PricedSide,
  path: string,
  which: string,
  notes: string[],
): NpmLockfile | null {
  const { text } = side.version;
  const reading = text === undefined ? null : readNpmLockfile(text);
  if (reading?.ok === true) return reading.lockfile;
  const why = reading === null ? `is a ${side.version.kind} file` : reading.problem;
  notes.push(`${path} (${which}): not read as an npm lockfile (${why}).`);
  return null;
}
