import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll } from '@jest/globals';
import { lock } from 'proper-lockfile';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';

/**
 * Real repositories for the hook tests: real `git commit` and `git push`, husky copied from
 * AUREUS's own node_modules (no network), and `aureus` resolvable in the repository as a user's
 * project has it, through node_modules/.bin, running this checkout's bin/aureus.js over dist/.
 */

export const ROOT = resolve('.');
const BIN = join(ROOT, 'bin', 'aureus.js');

/** A per-change budget a dozen added lines exceed. */
export const TINY_POLICY = 'version: 1\nbudgets:\n  change:\n    warn: 8\n    block: 10\n';

/** Eleven one-line exports in a new file: 11 code lines + 5 for the file, over a budget of 10. */
export const OVER_BUDGET = Array.from(
  { length: 11 },
  (_, i) => `export const v${i} = ${i};\n`,
).join('');

export const SMALL_CHANGE = 'export const one = 1;\n';

/**
 * Builds dist/ (library and CLI bundle) when a source is newer than the last build, once for all test files
 * (a lock: Jest runs files in parallel workers). tsc's exit code is not trusted to mean "no
 * output": it emits despite type errors, which `npm run typecheck` reports.
 */
export async function ensureBuilt(): Promise<void> {
  const release = await lock(ROOT, {
    lockfilePath: join(tmpdir(), 'aureus-hook-tests-build.lock'),
    retries: { retries: 300, minTimeout: 200, maxTimeout: 500 },
    stale: 180_000,
  });
  try {
    if (!isStale()) return;
    // What `npm run build:unchecked` does: the library with tsc, then the CLI bundle bin/aureus.js
    // runs. Emitted without type checking, which `npm run typecheck` does for src and tests at once.
    spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--noCheck'],
      { cwd: ROOT, stdio: 'ignore' },
    );
    spawnSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    if (isStale()) throw new Error('npm run build did not bring dist/ up to date');
  } finally {
    await release();
  }
}

function isStale(): boolean {
  const built = join(ROOT, 'dist', 'cli-bundle', 'aureus.mjs');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return newestSource(join(ROOT, 'src')) > builtAt;
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs;
    newest = Math.max(newest, time);
  }
  return newest;
}

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr together: git sends a hook's output to stderr. */
  readonly output: string;
}

/** Runs a program with the test's (isolated) environment plus `env`; never throws on exit codes. */
export function run(
  cwd: string,
  command: string,
  args: readonly string[],
  env: Record<string, string | undefined> = {},
  input?: string,
): Run {
  const merged: Record<string, string | undefined> = { ...process.env, ...env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete merged[key];
  const result = spawnSync(command, [...args], { cwd, env: merged, encoding: 'utf8', input });
  return {
    code: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    output: `${result.stdout}${result.stderr}`,
  };
}

/** `node bin/aureus.js …` from `cwd`. */
export function aureus(
  cwd: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Run {
  return run(cwd, process.execPath, [BIN, ...args], env);
}

/** husky from AUREUS's node_modules into `dir/node_modules`, with its bin link, as npm lays it out. */
export function installHuskyPackage(dir: string): void {
  const modules = join(dir, 'node_modules');
  cpSync(join(ROOT, 'node_modules', 'husky'), join(modules, 'husky'), { recursive: true });
  mkdirSync(join(modules, '.bin'), { recursive: true });
  symlinkSync('../husky/bin.js', join(modules, '.bin', 'husky'));
}

/** `dir/node_modules/.bin/aureus`: what installing AUREUS as a devDependency gives the project. */
export function installAureusShim(dir: string): void {
  writeAureusShim(join(dir, 'node_modules', '.bin'));
}

/** An `aureus` command in `folder`, for PATH lookups (a global install). */
export function writeAureusShim(folder: string): void {
  mkdirSync(folder, { recursive: true });
  const shim = join(folder, 'aureus');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(shim, 0o755);
}

export type NodeRepo = Repo & { remove(): Promise<void> };

/**
 * A repository with a package.json (at `packageDir`, the root by default), husky and aureus in
 * that package's node_modules, the tiny policy, one file and a first commit.
 */
export async function makeNodeRepo(prefix: string, packageDir = '.'): Promise<NodeRepo> {
  const repo = await makeRepo(prefix);
  const pkg = join(repo.dir, packageDir);
  repo.write(
    join(packageDir, 'package.json'),
    `${JSON.stringify({ name: `${prefix}-demo`, version: '1.0.0', devDependencies: { aureus: '*' } }, null, 2)}\n`,
  );
  repo.write('.gitignore', 'node_modules/\n');
  repo.write('.aureus/policy.yaml', TINY_POLICY);
  repo.write('src/base.ts', 'export const base = 0;\n');
  installHuskyPackage(pkg);
  installAureusShim(pkg);
  repo.commit('base');
  return repo;
}

/** `git commit` as a user types it, hooks and all. */
export function commit(repo: Repo, args: readonly string[], env: Record<string, string> = {}): Run {
  return run(repo.dir, 'git', ['commit', ...args], env);
}

/** The index file's bytes, hashed. */
export function indexDigest(repo: Repo): string {
  const indexPath = repo.git('rev-parse', '--git-path', 'index');
  return digest(readFileSync(resolve(repo.dir, indexPath)));
}

/**
 * Every file of the working tree (git's folder and node_modules aside) with its mode and a hash
 * of its bytes. `.aureus/local/` is left out: it is AUREUS's git-ignored store, where every check
 * appends to the ledger.
 */
export function worktreeListing(repo: Repo): string[] {
  const listing: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const shown = relative(repo.dir, path);
      if (['.git', 'node_modules', join('.aureus', 'local')].includes(shown)) continue;
      if (entry.isDirectory()) walk(path);
      else
        listing.push(`${shown} ${statSync(path).mode.toString(8)} ${digest(readFileSync(path))}`);
    }
  };
  walk(repo.dir);
  return listing.sort();
}

/** The local ledger's records, oldest first, every kind. */
export function ledgerLines(repo: Repo): Array<{ hash: string; record: Record<string, unknown> }> {
  const file = join(repo.dir, '.aureus', 'local', 'ledger.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

/** The local ledger's checks, oldest first (without the links post-commit appends). */
export function ledgerRecords(repo: Repo): Array<Record<string, unknown>> {
  return ledgerLines(repo)
    .map((line) => line.record)
    .filter((record) => record.kind !== 'commit');
}

/** The local ledger's links from commits to the checks they were made from, oldest first. */
export function commitLinks(repo: Repo): Array<Record<string, unknown>> {
  return ledgerLines(repo)
    .map((line) => line.record)
    .filter((record) => record.kind === 'commit');
}

function digest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Lets git write the index the way `git commit` does before its hooks run (see pre-commit.test). */
export function settleIndex(repo: Repo): void {
  const hooks = resolve(repo.dir, repo.git('rev-parse', '--git-dir'), 'refusing-hooks');
  mkdirSync(hooks, { recursive: true });
  writeFileSync(join(hooks, 'pre-commit'), '#!/bin/sh\nexit 1\n');
  chmodSync(join(hooks, 'pre-commit'), 0o755);
  run(repo.dir, 'git', ['-c', `core.hooksPath=${hooks}`, 'commit', '-q', '-m', 'settle']);
}

/**
 * What every hook test file needs before its first test: the built command, git isolated from
 * this machine's configuration, and no HUSKY, AUREUS_OVERRIDE or COLUMNS inherited from the shell.
 */
export function useHookTestEnvironment(): void {
  let restoreGit: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    await ensureBuilt();
    restoreGit = await isolateGit();
    delete process.env.HUSKY;
    delete process.env.AUREUS_OVERRIDE;
    // The hook wraps its lines to COLUMNS when set: the tests that want it set it themselves.
    delete process.env.COLUMNS;
  });
  afterAll(() => restoreGit?.());
}

/**
 * AUREUS's line in a hook script, written out for the tests to hold the script to: `aureus` run
 * when the PATH (with `path` first, for a monorepo package) has it, else one line saying it is
 * missing and how to install it, and the commit let through. post-commit stays silent.
 */
export function hookLineFor(name: string, args = '', path = ''): string {
  const prefix = path === '' ? '' : `PATH="${path}:$PATH" `;
  const probe = path === '' ? 'command -v aureus' : `(${prefix.trim()}; command -v aureus)`;
  const command = `${prefix}aureus hook ${name}${args}`;
  if (name === 'post-commit') return `if ${probe} >/dev/null 2>&1; then ${command}; fi`;
  const missing = `AUREUS: the aureus command is not on the PATH, so the ${name} hook checked nothing (the CI check still does). To resolve, install it: npm install --global <an AUREUS clone, or the .tgz that npm pack makes in it>.`;
  return `if ${probe} >/dev/null 2>&1; then ${command} || exit $?; else echo '${missing}' >&2; fi`;
}
