import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ensureBuilt } from '../hooks/hook-fixture.js';
import { overEngineeredRepos } from '../reflexion/support/over-engineered-repo.js';
import { useAureusProcesses } from '../support/aureus-process.js';
import { isolateGit, type Repo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * `aureus simplify` on repositories that commit links to what is not a source file (THREATS
 * rows 18 and 35). Where a read could block (a FIFO) or never end (/dev/zero), the real command
 * runs in a process of its own, so that it would leave this test waiting, never the test runner
 * itself. Each test is a whole run of reflexion (TypeScript loaded cold, a project type-checked)
 * on a machine that may be busy, hence the longer timeout.
 */

/** In names and texts alike: a proposal's title names what it removes, a diff shows the text. */
const MARKER = 'outsideMarker7f3a91';
const repos = overEngineeredRepos('simplify-links');
const aureus = useAureusProcesses();
let outside: Awaited<ReturnType<typeof makeTempDir>>;
let restoreGit: () => Promise<void>;

const RUN_MS = 120_000;

const simplify = (repo: Repo, format = 'text') =>
  aureus(repo.dir, ['simplify', '--format', format]);
const simplifyHere = (repo: Repo, format = 'text') =>
  runCliInProcess(['simplify', '--format', format], repo.dir);

/** Everything AUREUS printed or kept from the run. */
function everything(repo: Repo, run: { stdout: string; stderr: string }): string {
  const ledger = readFileSync(join(repo.dir, '.aureus', 'local', 'ledger.jsonl'), 'utf8');
  return `${run.stdout}\n${run.stderr}\n${ledger}`;
}

beforeAll(async () => {
  await ensureBuilt();
  restoreGit = await isolateGit();
  outside = await makeTempDir('simplify-outside');
  mkdirSync(join(outside.path, 'lib'));
  const secret = `export const secret = '${MARKER}';\nexport function ${MARKER}(): string {\n  return secret;\n}\n`;
  writeFileSync(join(outside.path, 'secret.ts'), secret);
  writeFileSync(join(outside.path, 'lib', 'index.ts'), secret);
});

afterAll(async () => {
  await repos.removeAll();
  await outside.remove();
  await restoreGit();
});

describe('aureus simplify never follows a link the repository commits', () => {
  it(
    'skips a link to /dev/zero, with the reason, and still simplifies the rest',
    async () => {
      const repo = await repos.make({ '.gitignore': '.aureus/local/\n' }, (made) =>
        made.symlink('/dev/zero', 'src/zero.ts'),
      );
      const run = await simplify(repo);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(
        '  - src/zero.ts: it is a symbolic link (mode 120000), which AUREUS does not follow',
      );
      expect(run.stdout).toContain('Remove unused export `legacyArea` (src/areas.ts:');
    },
    RUN_MS,
  );

  it(
    'skips a link to a FIFO made after the checkout, and never opens the FIFO',
    async () => {
      const repo = await repos.make({ '.gitignore': '.aureus/local/\npipe\n' }, (made) =>
        made.symlink('../pipe', 'src/pipe.ts'),
      );
      expect(spawnSync('mkfifo', [join(repo.dir, 'pipe')]).status).toBe(0);
      const run = await simplify(repo);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(
        '  - src/pipe.ts: it is a symbolic link (mode 120000), which AUREUS does not follow',
      );
    },
    RUN_MS,
  );

  it(
    'reads nothing through a link to a file or a folder outside the repository',
    async () => {
      const repo = await repos.make(
        {
          '.gitignore': '.aureus/local/\n',
          'src/uses-lib.ts':
            "import { secret } from '../lib/index.js';\nexport const n: number = secret;\n",
        },
        (made) => {
          made.symlink(join(outside.path, 'secret.ts'), 'src/outside.ts');
          made.symlink(join(outside.path, 'lib'), 'lib');
        },
      );
      const run = await simplifyHere(repo, 'json');
      expect(run.code).toBe(0);
      // The JSON holds every patch's diff and every proposal's title.
      expect(everything(repo, run)).not.toContain(MARKER);
      // The folder link is no source file: TypeScript finds nothing behind it (a type error the
      // patches are checked against, before and after alike), and nothing is read there.
      expect((JSON.parse(run.stdout) as { skipped: unknown }).skipped).toEqual([
        {
          path: 'src/outside.ts',
          reason: 'it is a symbolic link (mode 120000), which AUREUS does not follow',
        },
      ]);
      expect(readdirSync(outside.path).sort()).toEqual(['lib', 'secret.ts']);
    },
    RUN_MS,
  );

  it(
    'ends on a symlink loop, reporting both links',
    async () => {
      const repo = await repos.make({ '.gitignore': '.aureus/local/\n' }, (made) => {
        made.symlink('loop-b.ts', 'src/loop-a.ts');
        made.symlink('loop-a.ts', 'src/loop-b.ts');
      });
      const run = await simplifyHere(repo);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('  - src/loop-a.ts: it is a symbolic link (mode 120000)');
      expect(run.stdout).toContain('  - src/loop-b.ts: it is a symbolic link (mode 120000)');
    },
    RUN_MS,
  );
});
