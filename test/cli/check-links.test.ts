import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { useHookTestEnvironment } from '../hooks/hook-fixture.js';
import { useAureusProcesses } from '../support/aureus-process.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';

/**
 * `aureus check` and `aureus analyze` read the working tree's resolution configs (tsconfig.json,
 * package.json) from the disk, where a committed link could lead to /dev/zero or to a FIFO
 * (THREATS rows 18 and 35). The command runs in a process of its own: a read that never ends
 * or blocks would leave this test waiting, never the test runner; a whole run on a busy
 * machine gets the longer timeout.
 */

const RUN_MS = 120_000;
const aureus = useAureusProcesses();
const repos: Array<Repo & { remove(): Promise<void> }> = [];
useHookTestEnvironment();
afterAll(async () => {
  for (const repo of repos.splice(0)) await repo.remove();
});

/** Two files importing each other's folder, `config` committed as a link to `target`. */
async function repoWithLinkedConfig(config: string, target: string): Promise<Repo> {
  const repo = await makeRepo('check-links');
  repos.push(repo);
  repo.write('src/a.ts', "import { b } from './b';\nexport const a = b;\n");
  repo.write('src/b.ts', 'export const b = 1;\n');
  repo.symlink(target, config);
  repo.commit('linked config');
  repo.write('src/b.ts', 'export const b = 2;\n');
  return repo;
}

const UNREAD = (config: string, side: string) =>
  `${config} could not be read at the ${side}, so the analysis of the ${side} lacks it: it is a symbolic link, which AUREUS does not follow`;

describe('a resolution config committed as a link', () => {
  it(
    'to /dev/zero: check ends, incomplete (exit 2), and says which file and why',
    async () => {
      const repo = await repoWithLinkedConfig('tsconfig.json', '/dev/zero');
      const run = await aureus(repo.dir, ['check']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(2);
      expect(run.stdout).toContain(UNREAD('tsconfig.json', 'head'));
    },
    RUN_MS,
  );

  it(
    'to a FIFO made after the checkout: check and analyze end without opening it',
    async () => {
      const repo = await repoWithLinkedConfig('package.json', 'pipe');
      expect(spawnSync('mkfifo', [join(repo.dir, 'pipe')]).status).toBe(0);
      const check = await aureus(repo.dir, ['check']);
      expect(check.code).toBe(2);
      expect(check.stdout).toContain(UNREAD('package.json', 'head'));
      const analyze = await aureus(repo.dir, ['analyze']);
      expect(analyze.stderr).toBe('');
      expect(analyze.code).toBe(0);
    },
    RUN_MS,
  );
});
