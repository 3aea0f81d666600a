import { createHash } from 'node:crypto';
import { lstat, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Language } from '../model/facts.js';
import type { Finding } from '../model/finding.js';
import { writeCacheFile } from './atomic-write.js';
import { privateFolders, readCacheFile } from './cache-files.js';

/**
 * Set by the CLI bundler (scripts/build-cli.mjs) to a hash of every source file and of the
 * package manifest: a kept base side is what this very code computed. Absent when the sources
 * run unbundled (tests, the library): then nothing is kept, so no entry outlives its code.
 */
declare const AUREUS_BUILD_ID: string | undefined;

/** A base side as kept: the facts by reference (path and language), read from the facts cache. */
export interface KeptBaseSide {
  /** The base's files that have facts, with the language they were parsed as. */
  readonly factFiles: ReadonlyArray<readonly [string, Language]>;
  readonly modules: readonly string[];
  readonly findings: readonly Finding[];
  readonly unreadable: ReadonlyArray<{ readonly path: string; readonly problem: string }>;
  readonly unreadImports: ReadonlyArray<{
    readonly from: string;
    readonly to: string;
    readonly why: 'ignored' | 'symlink' | 'submodule';
    readonly through: readonly string[];
  }>;
  readonly shippedTests: readonly string[];
  readonly core: { readonly files: number; readonly loc: number; readonly modules: number };
}

/** What decides a base side: the clone, the judging policy and every file of the base. */
export interface BaseSideInputs {
  /** The clone on this disk (RepositorySource.resolutionScope): installed packages resolve. */
  readonly scope: string;
  readonly policy: unknown;
  readonly files: ReadonlyArray<{
    readonly path: string;
    readonly mode: string;
    readonly blobSha: string;
  }>;
  /** The paths whose generator's mark the change judged wrote (check/generated-at-base.ts). */
  readonly newMarks?: readonly string[];
}

/**
 * Base sides of checks in AUREUS's cache folder under `sides/`, keyed by a hash of everything
 * that decides them (BaseSideInputs) and of this build: never by anything a checkout names. An
 * entry carries a checksum of its text; one that does not verify, that is not a regular file of
 * this user alone, or that does not parse, is a miss. Failures to read or write are misses too:
 * a cache only saves time. Without a folder or a build id nothing is kept.
 */
export function baseSideCache(cacheDir: string | undefined) {
  if (typeof AUREUS_BUILD_ID !== 'string' || cacheDir === undefined) return undefined;
  const buildId = AUREUS_BUILD_ID;
  const folder = privateFolders(cacheDir);
  const fileOf = async (inputs: BaseSideInputs) =>
    join(await folder('sides'), `${keyOf(buildId, inputs)}.json`);
  return {
    read: async (inputs: BaseSideInputs): Promise<KeptBaseSide | undefined> => {
      try {
        const found = await readCacheFile(await fileOf(inputs));
        if (found.kind !== 'text') return undefined;
        const text = keptText(found.text);
        if (text === undefined) return undefined;
        const side: unknown = JSON.parse(text);
        return isKeptBaseSide(side) ? side : undefined;
      } catch {
        return undefined;
      }
    },
    write: async (inputs: BaseSideInputs, side: KeptBaseSide): Promise<void> => {
      const text = JSON.stringify(side);
      try {
        const file = await fileOf(inputs);
        await writeCacheFile(
          file,
          `${ENTRY_START}${checksum(text)}${ENTRY_SIDE}${text}${ENTRY_END}`,
        );
        await keepLatest(dirname(file));
      } catch {
        // A side that cannot be kept only costs the next check an analysis of its base.
      }
    },
  };
}

/**
 * Sides kept at most: one is written per base commit a check meets, and the latest few are the
 * ones the next checks ask for (the commit checked out, the branch's base).
 */
const KEPT_SIDES = 16;

/** Removes all but the KEPT_SIDES latest sides. */
async function keepLatest(folder: string): Promise<void> {
  const names = (await readdir(folder)).filter((name) => name.endsWith('.json'));
  if (names.length <= KEPT_SIDES) return;
  const dated = await Promise.all(
    names.map(async (name) => {
      const path = join(folder, name);
      return { path, at: (await lstat(path)).mtimeMs };
    }),
  );
  dated.sort((a, b) => b.at - a.at);
  await Promise.all(dated.slice(KEPT_SIDES).map(({ path }) => rm(path, { force: true })));
}

function keyOf(buildId: string, { scope, policy, files, newMarks = [] }: BaseSideInputs): string {
  // In one order whatever listed them: a commit's tree and the index it was made from agree.
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // One text hashed at once: the same bytes as hashing file by file, in one call, not thousands.
  const listed = sorted.map(({ path, mode, blobSha }) => `${path}\0${mode}\0${blobSha}\n`);
  // Without new marks the key is as it always was: a staged head is the next commit's base.
  const marks = newMarks.length === 0 ? '' : `\0${JSON.stringify([...newMarks].sort())}`;
  return createHash('sha256')
    .update(`${buildId}\0${scope}\0${JSON.stringify(policy)}\0${listed.join('')}${marks}`)
    .digest('hex');
}

/** What write puts around a side's text: its checksum first, so that it is read back unparsed. */
const ENTRY_START = '{"checksum":"';
const ENTRY_SIDE = '","side":';
const ENTRY_END = '}\n';
const CHECKSUM_LENGTH = 64;

/**
 * The side's text of an entry as write wrote it, when its checksum verifies; else undefined.
 * The checksum is of the very text parsed next: the side is neither parsed twice nor written
 * out again to be checked.
 */
function keptText(entry: string): string | undefined {
  const sideAt = ENTRY_START.length + CHECKSUM_LENGTH;
  if (!entry.startsWith(ENTRY_START) || !entry.startsWith(ENTRY_SIDE, sideAt)) return undefined;
  if (!entry.endsWith(ENTRY_END)) return undefined;
  const text = entry.slice(sideAt + ENTRY_SIDE.length, entry.length - ENTRY_END.length);
  return entry.slice(ENTRY_START.length, sideAt) === checksum(text) ? text : undefined;
}

function checksum(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * A shape check, not a validation: the checksum says these are the bytes this build wrote from
 * a base side it computed. It guards against a hand-made entry with a correct checksum.
 */
function isKeptBaseSide(value: unknown): value is KeptBaseSide {
  if (typeof value !== 'object' || value === null) return false;
  return (
    'factFiles' in value &&
    Array.isArray(value.factFiles) &&
    'modules' in value &&
    Array.isArray(value.modules) &&
    'findings' in value &&
    Array.isArray(value.findings) &&
    'unreadable' in value &&
    Array.isArray(value.unreadable) &&
    'unreadImports' in value &&
    Array.isArray(value.unreadImports) &&
    'shippedTests' in value &&
    Array.isArray(value.shippedTests) &&
    'core' in value &&
    isCoreSize(value.core)
  );
}

function isCoreSize(value: unknown): value is KeptBaseSide['core'] {
  return (
    typeof value === 'object' &&
    value !== null &&
    'files' in value &&
    Number.isInteger(value.files) &&
    'loc' in value &&
    Number.isInteger(value.loc) &&
    'modules' in value &&
    Number.isInteger(value.modules)
  );
}
