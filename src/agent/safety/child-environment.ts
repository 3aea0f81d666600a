import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type CommandRun, runCommand } from './run-command.js';
import { keptFromChildren } from './secret-names.js';

/**
 * The only variables a command the builder runs inherits. An allow-list rather than a
 * deny-list: a secret under a name nobody thought of stays out. NODE_OPTIONS is not among
 * them: `--require` would load code named by whoever set it, before the project's own.
 * AUREUS_RUN_MARKER (no secret) marks every process of a builder run, so the step that started
 * the run finds those that left its process group (`setsid`) and ends them.
 */
const INHERITED =
  /^(?:PATH|LANG|LANGUAGE|LC_[A-Z]+|TERM|TZ|TMPDIR|TMP|TEMP|USER|LOGNAME|NO_COLOR|SYSTEMROOT|COMSPEC|PATHEXT|WINDIR|AUREUS_RUN_MARKER)$/i;

/**
 * The environment of a command run in the run's tree: the allowed variables of `from`, without
 * any whose name looks secret (or that the caller names, like the model's key variable), with
 * HOME set to a folder of the run (so `~/.npmrc`, `~/.gitconfig` and their tokens stay out of
 * reach), CI set (no watch modes, no prompts), and git kept from the user's own configuration.
 */
export function childEnvironment(
  from: NodeJS.ProcessEnv,
  home: string,
  alsoSecret: readonly string[] = [],
): Record<string, string> {
  const named = new Set(alsoSecret.map((name) => name.toUpperCase()));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(from)) {
    if (value === undefined || !INHERITED.test(name)) continue;
    if (keptFromChildren(name) || named.has(name.toUpperCase())) continue;
    env[name] = value;
  }
  return {
    ...env,
    HOME: home,
    USERPROFILE: home,
    CI: 'true',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull(),
  };
}

function devNull(): string {
  return process.platform === 'win32' ? 'NUL' : '/dev/null';
}

/**
 * Runs a command of the run as both the shell tool and Verify do: in the run's tree, with a
 * home folder of the run's own and an environment without secrets.
 */
export async function runInSandbox(
  argv: readonly string[],
  settings: {
    readonly cwd: string;
    readonly runDir: string;
    readonly alsoSecret: readonly string[];
    readonly timeoutMs: number;
    readonly maxOutputBytes: number;
  },
): Promise<CommandRun> {
  const home = join(settings.runDir, 'home');
  await mkdir(home, { recursive: true });
  return runCommand(argv, {
    cwd: settings.cwd,
    env: childEnvironment(process.env, home, settings.alsoSecret),
    timeoutMs: settings.timeoutMs,
    maxOutputBytes: settings.maxOutputBytes,
  });
}
