import { execFile } from 'node:child_process';
import { lstat, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runGit } from '../git/git-runner.js';
import { writeFileAtomic } from '../memory/atomic-write.js';
import { AureusError } from '../model/errors.js';
import { shellWord } from './hook-script.js';
import { addHusky } from './husky-manifest.js';
import { GLOBAL_INSTALL, PROJECT_INSTALL } from './install-commands.js';

/** Where husky goes: the package to declare it in, the git root, the scripts folder. */
export interface HuskyTarget {
  readonly top: string;
  readonly packageDir: string;
  /** The scripts folder relative to the git root, `/`-separated: `.husky` unless husky had another. */
  readonly scriptsDir: string;
  /** Paths as the user sees them (relative to the git root). */
  readonly shown: (path: string) => string;
}

/**
 * Declares husky in package.json with husky's setup in `prepare` (npm runs it after every
 * install), then runs the project's own husky right away when it is installed, so the hooks
 * work before the next install. Returns the files changed; adds what is left to do to `notes`.
 */
export async function setUpHusky(
  target: HuskyTarget,
  run: boolean,
  notes: string[],
): Promise<string[]> {
  const { top, packageDir, scriptsDir, shown } = target;
  const manifestFile = join(packageDir, 'package.json');
  const huskyArgs = scriptsDir === '.husky' ? [] : [scriptsDir];
  // husky only sets itself up from the folder that holds `.git`: a sub-package climbs there.
  const toTop = packageDir === top ? '' : shellWord(relativeUp(packageDir, top));
  const prepare = [
    toTop === '' ? '' : `cd ${toTop} && `,
    'husky',
    ...huskyArgs.map((arg) => ` ${shellWord(arg)}`),
  ].join('');
  const text = await readFile(manifestFile, 'utf8');
  const edit = addHusky(text, shown(manifestFile), prepare);
  const changed: string[] = [];
  if (edit.changes.length > 0) {
    await writeFileAtomic(manifestFile, edit.text);
    changed.push(`${shown(manifestFile)} (${edit.changes.join('; ')})`);
  }
  const projects = run ? await findHusky(packageDir, top) : null;
  // Not installed in the project yet: AUREUS's own husky sets the same hooks up now, so the
  // check runs from the next commit on rather than after an install that may be days away.
  const husky = projects ?? (run ? ownHusky() : null);
  if (projects === null && husky !== null)
    notes.push(
      `husky is not installed in ${shown(packageDir)} yet: AUREUS ran its own, so the hooks work now; \`${await installCommand(packageDir, top)}\` keeps them set up.`,
    );
  if (husky === null) {
    notes.push(
      `run \`${await installCommand(packageDir, top)}\` in ${shown(packageDir)}: it installs husky, whose prepare script points git at ${scriptsDir}/.`,
    );
  } else {
    await runHusky(husky, huskyArgs, top);
    const now = await runGit(top, ['config', '--get', 'core.hooksPath'], { okExitCodes: [0, 1] });
    if (now.stdout.toString('utf8').trim() !== `${scriptsDir}/_`)
      notes.push(
        `husky did not set core.hooksPath (is HUSKY=0 set?): run \`npx husky ${huskyArgs.join(' ')}\` from the git root.`,
      );
  }
  if (!declaresAureus(edit.text))
    notes.push(
      `the hooks run \`aureus\` from node_modules/.bin, else from the PATH: add it to the project (${PROJECT_INSTALL}) or install it globally (${GLOBAL_INSTALL}).`,
    );
  return changed;
}

/** `../..`: the way up from a sub-package to the git root. */
function relativeUp(from: string, to: string): string {
  const steps: string[] = [];
  for (let dir = from; dir !== to && dirname(dir) !== dir; dir = dirname(dir)) steps.push('..');
  return steps.join('/');
}

/** husky's bin.js in the package's node_modules, or in one nearer the git root (hoisted). */
async function findHusky(packageDir: string, top: string): Promise<string | null> {
  for (let dir = packageDir; ; dir = dirname(dir)) {
    const bin = join(dir, 'node_modules', 'husky', 'bin.js');
    if (await exists(bin)) return bin;
    if (dir === top || dirname(dir) === dir) return null;
  }
}

/** The husky AUREUS depends on (the same major the manifest declares), or null if absent. */
function ownHusky(): string | null {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('husky')), 'bin.js');
  } catch {
    return null;
  }
}

/** Runs husky with an argument vector (no shell) from the git root, as `prepare` would. */
function runHusky(bin: string, args: readonly string[], top: string): Promise<void> {
  return new Promise((done, fail) => {
    execFile(process.execPath, [bin, ...args], { cwd: top }, (error, stdout, stderr) => {
      if (error === null) {
        done();
        return;
      }
      fail(
        new AureusError(
          `husky failed: ${String(stderr || stdout || error.message).trim()}`,
          'run it yourself from the git root (npx husky) and fix what it reports.',
        ),
      );
    });
  });
}

const MANAGERS: ReadonlyArray<readonly [string, string]> = [
  ['pnpm-lock.yaml', 'pnpm install'],
  ['yarn.lock', 'yarn install'],
  ['bun.lock', 'bun install'],
  ['bun.lockb', 'bun install'],
];

/** The install command of the package manager whose lockfile is there; npm by default. */
async function installCommand(packageDir: string, top: string): Promise<string> {
  for (const dir of [packageDir, top]) {
    for (const [lockfile, command] of MANAGERS)
      if (await exists(join(dir, lockfile))) return command;
  }
  return 'npm install';
}

/** Whether the project declares AUREUS (or is AUREUS), so node_modules/.bin/aureus will exist. */
function declaresAureus(manifestText: string): boolean {
  const manifest: unknown = JSON.parse(manifestText);
  if (typeof manifest !== 'object' || manifest === null) return false;
  if ('name' in manifest && manifest.name === 'aureus') return true;
  const declared = (deps: unknown) => typeof deps === 'object' && deps !== null && 'aureus' in deps;
  return (
    ('dependencies' in manifest && declared(manifest.dependencies)) ||
    ('devDependencies' in manifest && declared(manifest.devDependencies))
  );
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}
