import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bundle = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dist', 'index.mjs');

export interface ActionRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  /** GITHUB_OUTPUT, parsed (`name<<delimiter` blocks and `name=value` lines). */
  readonly outputs: Readonly<Record<string, string>>;
  readonly summary: string;
}

export interface ActionRunSettings {
  /** Where the runner files (event, output, summary) go. */
  readonly runnerDir: string;
  readonly workspace: string;
  readonly eventName: string;
  readonly event: unknown;
  readonly sha: string;
  readonly apiUrl: string;
  /** `with:` of the step, by input name. */
  readonly inputs: Readonly<Record<string, string>>;
  /** Runner variables to set otherwise; undefined removes one (a runner that lacks it). */
  readonly runnerEnv?: Readonly<Record<string, string | undefined>>;
}

/**
 * Runs the committed Action bundle as the runner does: `node dist/index.mjs` with the
 * `INPUT_*`, `GITHUB_*` and `RUNNER_*` variables, the event payload in a file, and the output
 * and summary files the runner reads back. Nothing else of this process's environment leaks
 * in except PATH, git's isolation (HOME and the fixed identity of the test repositories) and
 * the test run's cache folders (AUREUS_CACHE_DIR, and AUREUS_CODE_CACHE: every bundle started
 * in one test run shares V8's compiled code, as the processes of one runner machine share the
 * runner user's cache folder), unless `env` says otherwise.
 */
export async function runAction(settings: ActionRunSettings): Promise<ActionRun> {
  const { runnerDir } = settings;
  const eventPath = join(runnerDir, 'event.json');
  const outputPath = join(runnerDir, 'output.txt');
  const summaryPath = join(runnerDir, 'summary.md');
  writeFileSync(eventPath, JSON.stringify(settings.event));
  writeFileSync(outputPath, '');
  writeFileSync(summaryPath, '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CEILING_DIRECTORIES: process.env.GIT_CEILING_DIRECTORIES,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: settings.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_WORKSPACE: settings.workspace,
    GITHUB_SHA: settings.sha,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_API_URL: settings.apiUrl,
    RUNNER_TEMP: runnerDir,
    AUREUS_CACHE_DIR: process.env.AUREUS_CACHE_DIR,
    AUREUS_CODE_CACHE: process.env.AUREUS_CODE_CACHE,
  };
  for (const [name, value] of Object.entries(settings.inputs))
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  for (const [name, value] of Object.entries(settings.runnerEnv ?? {}))
    if (value === undefined) delete env[name];
    else env[name] = value;
  const { exitCode, stdout, stderr } = await run(
    process.execPath,
    [bundle],
    settings.workspace,
    env,
  );
  return {
    exitCode,
    stdout,
    stderr,
    outputs: parseOutputs(readFileSync(outputPath, 'utf8')),
    summary: readFileSync(summaryPath, 'utf8'),
  };
}

export function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ exitCode: code ?? -1, stdout, stderr }));
  });
}

/** The runner's GITHUB_OUTPUT file format, as @actions/core writes it. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc?.[1] !== undefined && heredoc[2] !== undefined) {
      const end = lines.indexOf(heredoc[2], index + 1);
      outputs[heredoc[1]] = lines.slice(index + 1, end).join('\n');
      index = end;
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}
