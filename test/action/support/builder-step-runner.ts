import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { type ActionRun, parseOutputs, run } from './action-runner.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const actionPath = join(root, 'builder');

export interface BuilderStepSettings {
  readonly runnerDir: string;
  readonly workspace: string;
  readonly event: unknown;
  readonly sha: string;
  readonly apiUrl: string;
  /** `${{ github.token }}`, the job's token, the default of the github-token input. */
  readonly jobToken: string;
  /** `with:` of the step. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** `env:` of the step that uses the builder (the model's key): composite steps inherit it. */
  readonly stepEnv?: Readonly<Record<string, string>>;
}

export interface BuilderStepRun extends ActionRun {
  /** Each script step's GITHUB_ENV and GITHUB_PATH as the step left them. */
  readonly commandFiles: readonly string[];
}

interface ManifestStep {
  readonly id?: string;
  readonly run?: string;
  readonly shell?: string;
  readonly uses?: string;
  readonly env?: Record<string, string>;
}

/**
 * Runs builder/action.yml as the runner runs a composite action: each step in turn, a `run:`
 * step as `bash --noprofile --norc -eo pipefail <script>` with the variables the runner sets for
 * script steps (GITHUB_*, RUNNER_*, CI, GITHUB_ACTION_PATH, fresh command files per step), the
 * caller's step env and the step's own `env:` with `${{ inputs.* }}` and `${{ github.token }}`
 * expanded. A step that is not a `run:` step is refused: the builder must never be one.
 */
export async function runBuilderStep(settings: BuilderStepSettings): Promise<BuilderStepRun> {
  const manifest: unknown = parse(readFileSync(join(actionPath, 'action.yml'), 'utf8'));
  const inputs = { ...defaults(manifest, settings.jobToken), ...settings.inputs };
  const steps: ManifestStep[] = Reflect.get(Object(Reflect.get(Object(manifest), 'runs')), 'steps');
  const eventPath = join(settings.runnerDir, 'event.json');
  writeFileSync(eventPath, JSON.stringify(settings.event));
  let stdout = '';
  let stderr = '';
  let summary = '';
  let exitCode = 0;
  const outputs: Record<string, string> = {};
  const commandFiles: string[] = [];
  for (const step of steps) {
    if (step.run === undefined || step.shell !== 'bash' || step.uses !== undefined)
      throw new Error(
        `builder/action.yml has a step that is not a bash run: step: ${JSON.stringify(step)}`,
      );
    const files = mkdtempSync(join(settings.runnerDir, 'step-'));
    const file = (name: string) => {
      writeFileSync(join(files, name), '');
      return join(files, name);
    };
    const env: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CEILING_DIRECTORIES: process.env.GIT_CEILING_DIRECTORIES,
      AUREUS_CACHE_DIR: process.env.AUREUS_CACHE_DIR,
      // The test run's compiled code, shared by every bundle it starts (action-runner.ts).
      AUREUS_CODE_CACHE: process.env.AUREUS_CODE_CACHE,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'workflow_dispatch',
      // The runner sets it on every job: 1, then 2, 3 … on "Re-run jobs".
      GITHUB_RUN_ATTEMPT: '1',
      // The runner names every job's workflow run; the builder step counts the day's runs
      // GitHub numbered before it. After every run the API double has numbered so far.
      GITHUB_RUN_ID: '39999999',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_WORKSPACE: settings.workspace,
      GITHUB_SHA: settings.sha,
      GITHUB_API_URL: settings.apiUrl,
      GITHUB_ACTION_PATH: actionPath,
      RUNNER_TEMP: settings.runnerDir,
      GITHUB_ENV: file('set_env'),
      GITHUB_PATH: file('add_path'),
      GITHUB_OUTPUT: file('set_output'),
      GITHUB_STEP_SUMMARY: file('step_summary'),
      GITHUB_STATE: file('save_state'),
      ...settings.stepEnv,
    };
    for (const [name, value] of Object.entries(step.env ?? {}))
      env[name] = expand(value, inputs, settings.jobToken);
    const script = join(files, 'script.sh');
    writeFileSync(script, step.run);
    const ran = await run(
      'bash',
      ['--noprofile', '--norc', '-eo', 'pipefail', script],
      settings.workspace,
      env,
    );
    stdout += ran.stdout;
    stderr += ran.stderr;
    summary += readFileSync(env.GITHUB_STEP_SUMMARY ?? '', 'utf8');
    commandFiles.push(
      readFileSync(env.GITHUB_ENV ?? '', 'utf8') + readFileSync(env.GITHUB_PATH ?? '', 'utf8'),
    );
    if (step.id !== undefined)
      for (const [name, value] of Object.entries(
        parseOutputs(readFileSync(env.GITHUB_OUTPUT ?? '', 'utf8')),
      ))
        outputs[`${step.id}.${name}`] = value;
    exitCode = ran.exitCode;
    if (exitCode !== 0) break;
  }
  return {
    exitCode,
    stdout,
    stderr,
    outputs: actionOutputs(manifest, outputs),
    summary,
    commandFiles,
  };
}

function defaults(manifest: unknown, jobToken: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [name, input] of Object.entries(Object(Reflect.get(Object(manifest), 'inputs')))) {
    const value: unknown = Reflect.get(Object(input), 'default');
    if (typeof value === 'string') found[name] = expand(value, {}, jobToken);
  }
  return found;
}

function expand(value: string, inputs: Record<string, string>, jobToken: string): string {
  return value.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => {
    if (name === 'github.token') return jobToken;
    if (name.startsWith('inputs.')) return inputs[name.slice('inputs.'.length)] ?? '';
    throw new Error(`builder/action.yml expands ${name}, which this runner does not know`);
  });
}

function actionOutputs(manifest: unknown, byStep: Record<string, string>): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const [name, output] of Object.entries(Object(Reflect.get(Object(manifest), 'outputs')))) {
    const value: unknown = Reflect.get(Object(output), 'value');
    const step =
      typeof value === 'string' ? /steps\.([\w-]+)\.outputs\.([\w-]+)/.exec(value) : null;
    if (step?.[1] !== undefined && step[2] !== undefined)
      outputs[name] = byStep[`${step[1]}.${step[2]}`] ?? '';
  }
  return outputs;
}
