import { spawn } from 'node:child_process';
import { lstat, readFile, rm, writeFile } from 'node:fs/promises';
import { secretValuesOf } from '../agent/implement-run.js';
import { errnoCode } from '../memory/errno-code.js';
import { fileKind } from '../memory/file-kind.js';
import { AureusError } from '../model/errors.js';
import type { AgentJob } from './agent-child.js';
import { killMarkedProcesses, newRunMarker, RUN_MARKER } from './run-processes.js';

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
 * What the runner and the builder step's shell put in the step's environment that says where and
 * what the run is, never a credential: the variables GitHub documents as the runner's defaults
 * (docs.github.com, "Variables", default environment variables), and the few it sets besides.
 * The agent learns every other value of the step's environment as a secret (`stepSecrets`).
 */
const RUNNER_METADATA = new Set([
  // The run, its workflow, repository and commit, and who started it: what the run's page and
  // the dispatch payload (GITHUB_EVENT_PATH, which the run can read) show anyway.
  'GITHUB_ACTION',
  'GITHUB_ACTION_REF',
  'GITHUB_ACTION_REPOSITORY',
  'GITHUB_ACTOR',
  'GITHUB_ACTOR_ID',
  'GITHUB_TRIGGERING_ACTOR',
  'GITHUB_BASE_REF',
  'GITHUB_HEAD_REF',
  'GITHUB_REF',
  'GITHUB_REF_NAME',
  'GITHUB_REF_PROTECTED',
  'GITHUB_REF_TYPE',
  'GITHUB_SHA',
  'GITHUB_EVENT_NAME',
  'GITHUB_JOB',
  'GITHUB_REPOSITORY',
  'GITHUB_REPOSITORY_ID',
  'GITHUB_REPOSITORY_OWNER',
  'GITHUB_REPOSITORY_OWNER_ID',
  'GITHUB_RETENTION_DAYS',
  'GITHUB_RUN_ATTEMPT',
  'GITHUB_RUN_ID',
  'GITHUB_RUN_NUMBER',
  'GITHUB_WORKFLOW',
  'GITHUB_WORKFLOW_REF',
  'GITHUB_WORKFLOW_SHA',
  // GitHub's public endpoints.
  'GITHUB_API_URL',
  'GITHUB_GRAPHQL_URL',
  'GITHUB_SERVER_URL',
  // Paths of the runner's folders and files: a place on the machine, not what it holds (the
  // command files are guarded by runAgent, the workspace is the run's own checkout).
  'GITHUB_ACTION_PATH',
  'GITHUB_EVENT_PATH',
  'GITHUB_WORKSPACE',
  ...RUNNER_FILES,
  'RUNNER_TEMP',
  'RUNNER_TOOL_CACHE',
  'RUNNER_WORKSPACE',
  // The machine: that it is CI, its system, architecture, name and image.
  'CI',
  'GITHUB_ACTIONS',
  'RUNNER_ARCH',
  'RUNNER_DEBUG',
  'RUNNER_ENVIRONMENT',
  'RUNNER_NAME',
  'RUNNER_OS',
  'ImageOS',
  'ImageVersion',
  // What bash sets for the step's script: its folder, its depth and the program it ran.
  'PWD',
  'OLDPWD',
  'SHLVL',
  '_',
  // The builder step's own settings (builder/action.yml): folder names.
  'AUREUS_OUTPUT_DIR',
  'AUREUS_WORKING_DIRECTORY',
  'AUREUS_STAGE',
  'AUREUS_PLAN_DIR',
]);

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

/**
 * The values the agent must know as secrets: every variable of the step's environment that the
 * allow-list keeps from it (the model's keys included), whatever its name, except the runner's
 * metadata and values too short to scrub. The run's commands can read them all in the step's
 * /proc/<pid>/environ, and a credential's name need not say so (SLACK_WEBHOOK_URL, SENTRY_DSN).
 */
export function stepSecrets(from: NodeJS.ProcessEnv, keyVariables: readonly string[]): string[] {
  return secretValuesOf(
    from,
    (name) =>
      RUNNER_METADATA.has(name) || (AGENT_VARIABLES.test(name) && !keyVariables.includes(name)),
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
 * command it left running does not outlive the step within the group, nor out of it: every
 * process carrying the run's marker is killed too. Then the runner's files
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
  const marker = newRunMarker();
  // The entry the build step was started with (dist/builder.mjs), not this module's own file:
  // in the bundle this code lives in a part the entry loads, which starts nothing by itself.
  const entry = process.argv[1];
  if (entry === undefined) throw new Error('the build step was started without its script');
  const exitCode = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [entry, 'agent'], {
      cwd: job.root,
      env: { ...env, [RUN_MARKER]: marker },
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
  // What left the group (setsid) still carries the run's marker: it does not outlive the step.
  await killMarkedProcesses(marker);
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
