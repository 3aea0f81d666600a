import { baseName } from '../analysis/repository-paths.js';
import type { ProjectManifests } from './manifests/read-project-manifests.js';
import type { Inferred } from './project-intelligence.js';
import type { SurveyFile } from './project-survey.js';
import { NPM_CLIENTS, TEST_RUNNERS, type TestRunnerEntry } from './test-runner-table.js';

export interface TestSetup {
  readonly runner: Inferred<string | null>;
  readonly command: Inferred<readonly string[]>;
}

/**
 * The test runner (from the TEST_RUNNERS table) and the command that runs the tests: the
 * package.json test script when there is one (it is what the project itself runs, flags and all),
 * else the runner's own command.
 */
export function detectTests(manifests: ProjectManifests, files: readonly SurveyFile[]): TestSetup {
  const rootNames = new Set(files.filter((file) => !file.path.includes('/')).map((f) => f.path));
  const configNames = new Set(files.map((file) => baseName(file.path)));
  const dependencies = new Set(manifests.dependencies.map((dependency) => dependency.name));
  const script = manifests.testScript;
  const evidenceOf = (entry: TestRunnerEntry): string | null => {
    if (!entry.ecosystems.some((ecosystem) => manifests.ecosystems.includes(ecosystem)))
      return null;
    if (script !== null && new RegExp(`(^|[\\s/])${entry.name}\\b`).test(script))
      return `the test script runs ${entry.name}`;
    const dependency = entry.packages.find((name) => dependencies.has(name));
    if (dependency !== undefined) return `${dependency} is a dependency`;
    const config = [...configNames].find((name) => entry.configFiles?.test(name));
    if (config !== undefined) return `${config} configures it`;
    if (manifests.testTools.includes(entry.name))
      return `${manifests.root.join(', ')} configures it`;
    if (entry.builtIn === true) return `${manifests.root.join(', ')} builds with it`;
    return null;
  };
  const found = TEST_RUNNERS.flatMap((entry) => {
    const evidence = evidenceOf(entry);
    return evidence === null ? [] : [{ entry, evidence }];
  });
  // A runner the test script names wins over one that is merely installed.
  const chosen = found.find(({ evidence }) => evidence.startsWith('the test script')) ?? found[0];
  const runner: Inferred<string | null> =
    chosen === undefined
      ? { value: null, reason: 'no test runner among the dependencies or configuration files' }
      : { value: chosen.entry.name, reason: chosen.evidence };
  if (script !== null) {
    const lockfile = [...rootNames].find((name) => NPM_CLIENTS.some((c) => c.lockfile.test(name)));
    const client = NPM_CLIENTS.find((c) => lockfile !== undefined && c.lockfile.test(lockfile));
    const through = client === undefined ? 'npm' : `${client.client} (${lockfile})`;
    return {
      runner,
      command: {
        value: [client?.client ?? 'npm', 'test'],
        reason: `package.json scripts.test is "${clipped(script)}", run through ${through}`,
      },
    };
  }
  if (chosen === undefined) {
    return { runner, command: { value: [], reason: 'no test script and no test runner found' } };
  }
  const wrapper = chosen.entry.wrapper;
  const wrapped = wrapper !== undefined && rootNames.has(wrapper.file);
  return {
    runner,
    command: {
      value: wrapped ? wrapper.command : chosen.entry.command,
      reason: wrapped
        ? `${chosen.entry.name} through the ${wrapper.file} the repository tracks`
        : `how ${chosen.entry.name} runs (${chosen.evidence})`,
    },
  };
}

/** A test script can chain a whole build; the reason shows its start. */
const MAX_SCRIPT_SHOWN = 60;

function clipped(script: string): string {
  return script.length <= MAX_SCRIPT_SHOWN ? script : `${script.slice(0, MAX_SCRIPT_SHOWN - 1)}…`;
}
