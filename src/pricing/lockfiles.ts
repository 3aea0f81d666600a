import { baseName } from '../analysis/repository-paths.js';

/**
 * Lockfiles the package managers write. Their lines are not priced as lines: what a lockfile
 * adds is priced once, as dependencies (the npm lockfile's packages map), and counting its
 * hundreds of generated lines as code would price the same dependency twice.
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

/** The lockfiles AUREUS reads: npm's, whose `packages` map prices what a change installs. */
const NPM_LOCKFILE_NAMES = new Set(['package-lock.json', 'npm-shrinkwrap.json']);

export function isLockfile(path: string): boolean {
  return LOCKFILE_NAMES.has(baseName(path));
}

export function isNpmLockfile(path: string): boolean {
  return NPM_LOCKFILE_NAMES.has(baseName(path));
}
