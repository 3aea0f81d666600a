import { runCli } from '../../src/cli/run-cli.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the CLI in this process with `cwd` as the working directory, capturing its output.
 * `ask` stands for a person at a terminal: given, the run is interactive and it answers.
 */
export async function runCliInProcess(
  argv: readonly string[],
  cwd: string,
  ask?: (question: string) => Promise<string>,
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    argv,
    {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      cwd,
      color: false,
      progress: { interactive: false, columns: 80 },
      ...(ask === undefined ? {} : { ask }),
    },
    '0.0.0-test',
  );
  return { code, stdout, stderr };
}

/** `aureus check --base <base> --head HEAD --format json` in `dir`: its exit code and report. */
export async function checkAsJson(dir: string, base: string) {
  const run = await runCliInProcess(
    ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
    dir,
  );
  return { code: run.code, report: JSON.parse(run.stdout) };
}
