import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { type ActionRun, runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import { codeLines, pullRequestEvent, type Scenario } from './support/pull-request-scenario.js';

const PR_TOKEN = 'ghs_pull_request_job';

const session = useActionTestSession({
  [PR_TOKEN]: { contents: 'read', metadata: 'read', pull_requests: 'write', checks: 'write' },
});

/** A stack frame as Node prints one: what a user of the Action must never see. */
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

function runWith(
  made: Scenario,
  runnerEnv: Record<string, string | undefined>,
): Promise<ActionRun> {
  return runAction({
    runnerDir: made.runnerDir,
    workspace: made.workspace,
    eventName: 'pull_request',
    event: pullRequestEvent(made),
    sha: made.headSha,
    apiUrl: session.double.url,
    inputs: { 'github-token': PR_TOKEN },
    runnerEnv,
  });
}

describe('the Action when the runner gives no usable GITHUB_OUTPUT', () => {
  it.each<[string, (made: Scenario) => string | undefined]>([
    ['unset', () => undefined],
    ['a file that does not exist', (made) => join(made.runnerDir, 'no-such-folder', 'output')],
    ['a folder', (made) => made.runnerDir],
  ])(
    'with GITHUB_OUTPUT %s: a warning, the verdict reported, the exit code of the verdict',
    async (_name, output) => {
      const over = await session.scenario((origin) =>
        origin.write('src/feature.ts', codeLines('feature', 80)),
      );
      const blocked = await runWith(over, { GITHUB_OUTPUT: output(over) });
      expect(blocked.exitCode).toBe(1);
      expect(blocked.stdout).toMatch(/::warning::.*GITHUB_OUTPUT/);
      expect(blocked.stdout).not.toContain('::set-output');
      expect(blocked.summary).toContain('BLOCK');
      expect(`${blocked.stdout}\n${blocked.stderr}`).not.toMatch(STACK_FRAME);

      const small = await session.scenario((origin) =>
        origin.write('src/small.ts', codeLines('small', 4)),
      );
      const passed = await runWith(small, { GITHUB_OUTPUT: output(small) });
      expect(passed.exitCode).toBe(0);
      expect(`${passed.stdout}\n${passed.stderr}`).not.toMatch(STACK_FRAME);
    },
  );
});
