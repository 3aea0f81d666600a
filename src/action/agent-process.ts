import { spawn } from 'node:child_process';
import { lstat, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { errnoCode } from '../memory/errno-code.js';
import { fileKind } from '../memory/file-kind.js';
import { AureusError } from '../model/errors.js';
import type { AgentJob } from './agent-child.js';

/**
 * The only variables the agent's process gets, `env -i` style: an allow-list, so a variable the
 * runner or the workflow adds (a token, the GITHUB_ENV file of the step) stays out whatever its
 * name. The model's key variables are added by name, from the policy.
 */
const AGENT_VARIABLES =
  /^(?:PATH|HOME|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|USER|LOGNAME|AUREUS_CACHE_DIR|ANTHROPIC_BASE_URL|OPENAI_BASE_URL)$/;

/**
 * The runner's files through which a step changes the job's later steps (their environment,
 * PATH, this step's outputs and summary, a post step's state): the agent must not write them.
 */
const RUNNER_FILES = [
  'GITHUB_ENV',
  'GITHUB_PATH',
  'GITHUB_OUTPUT',
  'GITHUB_STEP_SUMMARY',
  'GITHUB_STATE',
] as const;

/**
 * Credentials the runner gives JavaScript and container actions (ACTIONS_RUNTIME_TOKEN, the cache
 * and results URLs), script steps of a job granted `id-token: write` (ACTIONS_ID_TOKEN_REQUEST_*),
 * or a workflow's `env:` (a GitHub token). The agent never gets them, but its commands could read
 * them in the build step's own `/proc/<pid>/environ`: the step refuses to start beside them.
 */
const RUNNER_CREDENTIAL =
  /^(?:ACTIONS_RUNTIME_TOKEN|ACTIONS_RUNTIME_URL|ACTIONS_CACHE_URL|ACTIONS_RESULTS_URL|ACTIONS_ID_TOKEN_REQUEST_TOKEN|ACTIONS_ID_TOKEN_REQUEST_URL|GITHUB_TOKEN|GH_TOKEN|GH_ENTERPRISE_TOKEN|AUREUS_GITHUB_TOKEN|INPUT_.*)$/i;

export function refuseRunnerCredentials(env: NodeJS.ProcessEnv): void {
  const held = Object.keys(env).filter((name) => env[name] !== '' && RUNNER_CREDENTIAL.test(name));
  if (held.length === 0) return;
  throw new AureusError(
    `the builder's step holds ${held.sort().join(', ')}, which the commands of the run could read in its /proc/<pid>/environ.`,
    "take it out of the build job's env:, and grant the build job contents: read and issues: read only (no id-token: write).",
  );
}

export function agentEnvironment(
  from: NodeJS.ProcessEnv,
  keyVariables: readonly string[],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(from))
    if (value !== undefined && (AGENT_VARIABLES.test(name) || keyVariables.includes(name)))
      env[name] = value;
  return env;
}

/**
 * Runs the agent as a child process of its own (this bundle, `agent`) with `env` and the job on
 * its standard input, in a process group of its own that is killed when it exits, so that a
 * command it left running does not outlive the step within the group. Then the runner's files
 * of this step must be as they were: a run that wrote to one (an environment variable or a PATH
 * entry for the upload step, an output) has them put back and fails the step. Answers the
 * agent's exit code.
 */
export async function runAgent(
  job: AgentJob,
  env: Record<string, string>,
  runnerEnv: NodeJS.ProcessEnv,
): Promise<number> {
  const before = await runnerFiles(runnerEnv);
  const exitCode = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'agent'], {
      cwd: job.root,
      env,
      detached: true,
      stdio: ['pipe', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', (code) => {
      killGroup(child.pid);
      resolve(code ?? 2);
    });
    child.stdin.end(JSON.stringify(job));
  });
  const changed: string[] = [];
  for (const [name, path, contents] of before) {
    if ((await readOrNull(path)) === contents) continue;
    changed.push(name);
    // Removed first: a link put in its place is replaced, never written through.
    await rm(path, { force: true });
    if (contents !== null) await writeFile(path, contents, { flag: 'wx' });
  }
  if (changed.length > 0)
    throw new AureusError(
      `a command of the builder's run wrote to the runner's ${changed.join(', ')}, which would change the job's later steps; ${changed.length === 1 ? 'it was' : 'they were'} put back, and the run is not published.`,
      "look at the commands the run's policy allows (permissions.allowed_commands, project.stack.test_command): a test must not write to GITHUB_* files.",
    );
  return exitCode;
}

async function runnerFiles(
  env: NodeJS.ProcessEnv,
): Promise<Array<readonly [string, string, string | null]>> {
  const files: Array<readonly [string, string, string | null]> = [];
  for (const name of RUNNER_FILES) {
    const path = env[name];
    if (path !== undefined && path !== '') files.push([name, path, await readOrNull(path)]);
  }
  return files;
}

/** A file's text, null when missing; what is no longer a regular file never reads as one. */
async function readOrNull(path: string): Promise<string | null> {
  const stats = await lstat(path).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  });
  if (stats === null) return null;
  return stats.isFile() ? readFile(path, 'utf8') : `\u0000${fileKind(stats)}`;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is gone already: nothing the run started is left.
  }
}
