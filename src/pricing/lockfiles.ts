import { baseName } from '../analysis/repository-paths.js';
import type { LockfileReading } from './dependencies/installed-packages.js';
import {
  readBunLockfile,
  readPnpmLockfile,
  readYarnLockfile,
} from './dependencies/js-lockfiles.js';
import type { Ecosystem } from './dependencies/manifest-reading.js';
import { readNpmLockfile } from './dependencies/npm-lockfile.js';
import { readGemfileLock, readGoSum } from './dependencies/text-lockfiles.js';
import {
  readCargoLockfile,
  readPoetryLockfile,
  readUvLockfile,
} from './dependencies/toml-lockfiles.js';

/**
 * Lockfiles the package managers write. Their lines are not priced as lines: what a lockfile
 * adds is priced once, as dependencies (the packages it installs), and counting its hundreds
 * of generated lines as code would price the same dependency twice.
 */
const LOCKFILE_NAMES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'go.sum',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'pdm.lock',
  'Cargo.lock',
  'composer.lock',
  'Gemfile.lock',
]);

interface LockfileReader {
  /** The manifests whose new dependencies it resolves. */
  readonly ecosystem: Ecosystem;
  readonly read: (text: string) => LockfileReading;
}

/** The lockfiles AUREUS reads, by file name: what a change installs is priced from them. */
const READERS: ReadonlyMap<string, LockfileReader> = new Map([
  ['package-lock.json', { ecosystem: 'npm', read: readNpmLockfile }],
  ['npm-shrinkwrap.json', { ecosystem: 'npm', read: readNpmLockfile }],
  ['pnpm-lock.yaml', { ecosystem: 'npm', read: readPnpmLockfile }],
  ['yarn.lock', { ecosystem: 'npm', read: readYarnLockfile }],
  ['bun.lock', { ecosystem: 'npm', read: readBunLockfile }],
  ['poetry.lock', { ecosystem: 'python', read: readPoetryLockfile }],
  ['uv.lock', { ecosystem: 'python', read: readUvLockfile }],
  ['go.sum', { ecosystem: 'go', read: readGoSum }],
  ['Cargo.lock', { ecosystem: 'cargo', read: readCargoLockfile }],
  ['Gemfile.lock', { ecosystem: 'ruby', read: readGemfileLock }],
]);

export function isLockfile(path: string): boolean {
  return LOCKFILE_NAMES.has(baseName(path));
}

/** The reader of a lockfile AUREUS reads; undefined for any other file. */
export function lockfileReaderOf(path: string): LockfileReader | undefined {
  return READERS.get(baseName(path));
}

/** Whether AUREUS reads a lockfile of this ecosystem (Maven's has none). */
export function hasLockfiles(ecosystem: Ecosystem): boolean {
  return [...READERS.values()].some((reader) => reader.ecosystem === ecosystem);
}
