import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import {
  CHECKOUT_CACHE_ROOTS,
  contentsOf,
  forgedFactsFiles,
  linkTargets,
  typeScriptFacts,
} from '../support/forged-caches.js';
import { repoAt } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';
import { type ActionRun, runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import { codeLines, pullRequestEvent, type Scenario } from './support/pull-request-scenario.js';

/**
 * THREATS.md rows 31 and 35 on the Action: a pull request's checkout is the workspace the Action
 * judges it in, so what the pull request commits there — forged facts for the base's blob and
 * the head's, links at the cache folders — must not reach AUREUS's caches. The verdict is that of
 * a run with every cache off, and nothing is written through the links.
 */

const TOKEN = 'ghs_pull_request_job';
const session = useActionTestSession({
  [TOKEN]: { contents: 'read', metadata: 'read', pull_requests: 'write', checks: 'write' },
});

const GOD_CLASS_POLICY = 'version: 1\nbudgets:\n  change:\n    warn: 400\n    block: 500\n';
/** A class of 560 one-line methods: a god class, and over the budget of 500. */
const GOD_CLASS = `export class App {\n${Array.from(
  { length: 560 },
  (_, index) => `  m${index}(): number { return ${index}; }\n`,
).join('')}}\n`;

function runOn(made: Scenario, env: Record<string, string | undefined> = {}): Promise<ActionRun> {
  return runAction({
    runnerDir: made.runnerDir,
    workspace: made.workspace,
    eventName: 'pull_request',
    event: pullRequestEvent(made),
    sha: made.headSha,
    apiUrl: session.double.url,
    inputs: { 'github-token': TOKEN },
    runnerEnv: env,
  });
}

describe('the Action on a pull request that commits caches of its own', () => {
  it('judges a god class with forged facts for both sides and links at the cache folders as with no cache', async () => {
    const outside = await makeTempDir('action-checkout-caches');
    try {
      const targets = linkTargets(outside.path, 3);
      const core = codeLines('core', 3);
      const forged = await Promise.all([typeScriptFacts(GOD_CLASS), typeScriptFacts(core)]);
      const made = await session.scenario((origin) => {
        origin.write('src/core.ts', GOD_CLASS);
        // The god class's facts claimed for the base's file, the base's for the head's.
        const entries = [
          { blobSha: origin.hashText(core), facts: forged[0] },
          { blobSha: origin.hashText(GOD_CLASS), facts: forged[1] },
        ];
        for (const root of CHECKOUT_CACHE_ROOTS)
          for (const [path, text] of Object.entries(forgedFactsFiles(root, entries)))
            origin.write(path, text);
        ['texts', 'policies', 'resolutions'].forEach((folder, index) => {
          origin.symlink(targets[index] ?? '', `.aureus/local/cache/${folder}`);
        });
      }, GOD_CLASS_POLICY);
      const caches = join(outside.path, 'caches');

      const judged = await runOn(made, { AUREUS_CACHE_DIR: caches });

      expect(judged.exitCode).toBe(1);
      expect(judged.outputs.verdict).toBe('block');
      expect(Number(judged.outputs['total-cost'])).toBeGreaterThan(560);
      expect(judged.stdout).toMatch(/new god_class: class App spans 56\d lines of code/);
      session.double.reset();
      const uncached = await runOn(made, { AUREUS_CACHE_DIR: 'off' });
      expect(uncached.outputs).toMatchObject({
        verdict: judged.outputs.verdict,
        'total-cost': judged.outputs['total-cost'],
      });
      for (const target of targets) expect(contentsOf(target)).toEqual([]);
      expect(repoAt(made.workspace).git('status', '--porcelain')).toBe('');
    } finally {
      await outside.remove();
    }
  });
});
