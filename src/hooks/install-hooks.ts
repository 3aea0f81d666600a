import { chmod, lstat, mkdir, readFile, realpath, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { runGit } from '../git/git-runner.js';
import { writeFileAtomic } from '../memory/atomic-write.js';
import { errnoCode } from '../memory/errno-code.js';
import { AureusError } from '../model/errors.js';
import {
  type HookName,
  hasHookLine,
  mergeHookLine,
  removeHookLine,
  shellWord,
} from './hook-script.js';
import { setUpHusky } from './husky-setup.js';
import { GLOBAL_INSTALL } from './install-commands.js';

export interface InstallHooksOptions {
  /** Hooks to install besides pre-commit and post-commit, which always are. */
  readonly hooks?: readonly Exclude<HookName, 'pre-commit' | 'post-commit'>[];
  /** Run the project's own husky right away when it is installed (default true). */
  readonly runHusky?: boolean;
}

/** What an install or uninstall did, for the user. Paths are relative to the git root. */
export interface HookInstall {
  /** husky: `.husky/` scripts run by husky; plain: scripts in the folder git runs hooks from. */
  readonly mode: 'husky' | 'plain';
  readonly hooksDir: string;
  readonly changed: readonly string[];
  /** What the user should know or do next, one sentence each. */
  readonly notes: readonly string[];
}

/**
 * Where the hooks go. A node project (a package.json at `root` or above it, up to the git root)
 * gets husky, unless git already runs hooks from a folder that is not husky's. Anything else gets
 * plain scripts in the folder git runs hooks from: core.hooksPath when set, else `.git/hooks`.
 * Setting core.hooksPath ourselves would silently switch off the hooks already in `.git/hooks`
 * (git-lfs, the pre-commit framework), so a plain install never does.
 */
interface HookLayout {
  readonly top: string;
  readonly packageDir: string | null;
  readonly mode: 'husky' | 'plain';
  /** Absolute folder of the scripts AUREUS edits. */
  readonly scriptsDir: string;
}

const HOOKS: readonly HookName[] = ['pre-commit', 'post-commit', 'pre-push', 'commit-msg'];

/**
 * `aureus hooks install`: adds AUREUS's line to the pre-commit hook (and pre-push, commit-msg
 * when asked), merged into what the scripts already run and never duplicated. `root` is where
 * AUREUS is used: the git root, or a sub-package of a monorepo (run from it).
 */
export async function installHooks(
  root: string,
  options: InstallHooksOptions = {},
): Promise<HookInstall> {
  const layout = await hookLayout(root);
  const changed: string[] = [];
  const notes: string[] = [];
  // post-commit links each commit to its pre-commit check in the local ledger.
  const wanted = new Set<HookName>(['pre-commit', 'post-commit', ...(options.hooks ?? [])]);
  // A commit-msg hook that reads the Aureus-Override trailer only works if pre-commit leaves the
  // decision to it: pre-commit runs before the message exists.
  const commitMsgFile = join(layout.scriptsDir, 'commit-msg');
  const defer =
    wanted.has('commit-msg') || hasHookLine(await readText(commitMsgFile), 'commit-msg');
  for (const name of HOOKS) {
    if (!wanted.has(name)) continue;
    const file = join(layout.scriptsDir, name);
    const header = layout.mode === 'plain' ? '#!/bin/sh\n' : '';
    const merged = mergeHookLine(await readText(file), name, hookLine(layout, name, defer), header);
    if (!merged.changed) continue;
    await writeScript(file, merged.text);
    changed.push(shown(layout, file));
  }
  if (layout.mode === 'husky' && layout.packageDir !== null) {
    const target = {
      top: layout.top,
      packageDir: layout.packageDir,
      scriptsDir: shown(layout, layout.scriptsDir),
      shown: (path: string) => shown(layout, path),
    };
    changed.push(...(await setUpHusky(target, options.runHusky ?? true, notes)));
  } else {
    notes.push(
      `the hooks run \`aureus\` from the PATH: install it globally (${GLOBAL_INSTALL}) or put a wrapper named aureus on the PATH.`,
    );
    if (layout.scriptsDir.startsWith(join(layout.top, '.git') + sep))
      notes.push('.git/hooks belongs to this clone only: run aureus hooks install in every clone.');
  }
  return { mode: layout.mode, hooksDir: shown(layout, layout.scriptsDir), changed, notes };
}

/** `aureus hooks uninstall`: takes AUREUS's lines out of the hook scripts, and nothing else. */
export async function uninstallHooks(root: string): Promise<HookInstall> {
  const layout = await hookLayout(root);
  const changed: string[] = [];
  for (const name of HOOKS) {
    const file = join(layout.scriptsDir, name);
    const text = await readText(file);
    if (text === null) continue;
    const removed = removeHookLine(text, name);
    if (!removed.changed) continue;
    if (removed.empty) await unlink(file);
    else await writeScript(file, removed.text);
    changed.push(shown(layout, file));
  }
  const notes =
    layout.mode === 'husky'
      ? ['husky stays in package.json and in core.hooksPath: other hooks may use it.']
      : [];
  return { mode: layout.mode, hooksDir: shown(layout, layout.scriptsDir), changed, notes };
}

async function hookLayout(root: string): Promise<HookLayout> {
  if (
    !(await stat(root).then(
      (info) => info.isDirectory(),
      () => false,
    ))
  )
    throw new AureusError(
      `${root} is not a folder.`,
      'run aureus hooks install inside a git checkout.',
    );
  const top = (await gitText(root, ['rev-parse', '--show-toplevel'])).trim();
  if (top === '')
    throw new AureusError(
      `${root} has no working tree, so it has no hooks to install.`,
      'run aureus hooks install in a checkout.',
    );
  // Real paths on both sides: git prints the top level with symlinks resolved.
  const packageDir = await nearestPackage(await realpath(resolve(root)), top);
  const configured = await runGit(top, ['config', '--type=path', '--get', 'core.hooksPath'], {
    okExitCodes: [0, 1],
  });
  const hooksPath = configured.stdout.toString('utf8').trim();
  if (hooksPath === '') {
    if (packageDir !== null)
      return { top, packageDir, mode: 'husky', scriptsDir: join(top, '.husky') };
    const gitPath = (await gitText(top, ['rev-parse', '--git-path', 'hooks'])).trim();
    return { top, packageDir, mode: 'plain', scriptsDir: resolve(top, gitPath) };
  }
  const configuredDir = resolve(top, hooksPath);
  // husky 9 points git at `<dir>/.husky/_` (its runner) and runs the scripts in `<dir>/.husky`.
  const husky9 = basename(configuredDir) === '_' && basename(dirname(configuredDir)) === '.husky';
  if (packageDir !== null && husky9)
    return { top, packageDir, mode: 'husky', scriptsDir: dirname(configuredDir) };
  return { top, packageDir, mode: 'plain', scriptsDir: configuredDir };
}

/** The line each hook script runs. husky puts `<git root>/node_modules/.bin` on the PATH. */
function hookLine(layout: HookLayout, name: HookName, defer: boolean): string {
  const { top, packageDir, mode } = layout;
  // Not `cd <package> && …`: git hands pre-commit a relative GIT_INDEX_FILE (.git/index), which
  // would then point nowhere. The package's own bin folder goes first on the PATH instead.
  const bin =
    packageDir !== null && (mode === 'plain' || packageDir !== top)
      ? posix(relative(top, join(packageDir, 'node_modules', '.bin'))) || '.'
      : null;
  const prefix =
    bin === null
      ? ''
      : bin === shellWord(bin)
        ? `PATH="${bin}:$PATH" `
        : `PATH=${shellWord(bin)}:"$PATH" `;
  const args: Record<HookName, string> = {
    'pre-commit': defer ? ' --defer-to-commit-msg' : '',
    'post-commit': '',
    'pre-push': ' "$@"',
    'commit-msg': ' "$1"',
  };
  const command = `${prefix}aureus hook ${name}${args[name]}`;
  // A script finds aureus on the PATH (husky's puts the project's node_modules/.bin first), where
  // a machine may lack it (a project that does not declare it, a clone not installed yet, another
  // node version's global folder): the shell's bare "aureus: not found" would refuse every
  // commit with no way out in sight. The hook is advisory and the CI check is the gate,
  // so it says what is missing and how to install it, in one line, and lets the change through.
  // The probe runs in a subshell so the PATH it is given stays its own.
  const probe = prefix === '' ? 'command -v aureus' : `(${prefix.trim()}; command -v aureus)`;
  const missing = `AUREUS: the aureus command is not on the PATH, so the ${name} hook checked nothing (the CI check still does). To resolve, install it: ${GLOBAL_INSTALL}.`;
  // post-commit only links ledger entries: pre-commit has said it already, once is enough.
  if (name === 'post-commit') return `if ${probe} >/dev/null 2>&1; then ${command}; fi`;
  // Plain scripts do not run with `sh -e` (husky's do): a failure must end them either way.
  return `if ${probe} >/dev/null 2>&1; then ${command} || exit $?; else echo '${missing}' >&2; fi`;
}

/** The nearest folder holding a package.json, from `start` up to the git root; null when none. */
async function nearestPackage(start: string, top: string): Promise<string | null> {
  const outside = relative(top, start).startsWith('..');
  for (let dir = outside ? top : start; ; dir = dirname(dir)) {
    if (await isFile(join(dir, 'package.json'))) return dir;
    if (dir === top || dirname(dir) === dir) return null;
  }
}

/** Writes a hook script and makes it executable (git skips a hook it cannot execute). */
async function writeScript(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const mode = await stat(file).then(
    (info) => info.mode & 0o777,
    () => 0o644,
  );
  await writeFileAtomic(file, text);
  await chmod(file, mode | 0o111);
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
}

async function isFile(path: string): Promise<boolean> {
  return lstat(path).then(
    (info) => info.isFile() || info.isSymbolicLink(),
    () => false,
  );
}

async function gitText(cwd: string, args: readonly string[]): Promise<string> {
  return (await runGit(cwd, args)).stdout.toString('utf8');
}

function shown(layout: HookLayout, path: string): string {
  return posix(relative(layout.top, path)) || '.';
}

function posix(path: string): string {
  return path.split(sep).join('/');
}
