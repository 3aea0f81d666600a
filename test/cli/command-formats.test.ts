import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COMMANDS } from '../../src/cli/command-table.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/**
 * Every `--format` a command accepts changes what it prints, and any other is refused with the
 * list of those it has: a format accepted and ignored reads as a report in that format.
 */

const WITH_FORMAT = Object.entries(COMMANDS).filter(([, command]) =>
  command.accepts.includes('format'),
);

/** Commands whose formats need more than a repository to run: tested where that is set up. */
const RUN_ELSEWHERE: Readonly<Record<string, string>> = {
  // Needs a model: test/cli/implement-run.test.ts reads its --format json report.
  implement: 'a model provider',
};

let restoreGit: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
beforeAll(async () => {
  restoreGit = await isolateGit();
  repo = await makeRepo('command-formats');
  repo.write('.gitignore', '.aureus/local/\n');
  repo.write('.aureus/policy.yaml', 'version: 1\n');
  repo.write('src/area.ts', 'export function area(r: number): number {\n  return r * r;\n}\n');
  repo.commit('base');
  repo.write('src/shape.ts', "import { area } from './area';\nexport const unit = area(1);\n");
  repo.git('add', 'src/shape.ts');
  // A ledger entry for the ledger commands to show and verify, and a backup of it to restore.
  expect((await runCliInProcess(['check'], repo.dir)).code).toBe(0);
  const ledger = join(repo.dir, '.aureus/local/ledger.jsonl');
  await copyFile(ledger, `${ledger}.bak-20260101T000000Z`);
});
afterAll(async () => {
  await repo.remove();
  await restoreGit();
});

describe('aureus <command> --format', () => {
  it.each(WITH_FORMAT.map(([name]) => name))(
    'aureus %s refuses every format it does not have (another command’s too), listing its own',
    async (name) => {
      const formats: readonly string[] = COMMANDS[name]?.formats ?? [];
      const others = new Set([
        'yaml-ish',
        ...WITH_FORMAT.flatMap(([, command]) => command.formats),
      ]);
      for (const format of [...others].filter((other) => !formats.includes(other))) {
        const run = await runCliInProcess([...name.split(' '), '--format', format], repo.dir);
        expect(run.code).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(
          new RegExp(`^aureus: aureus ${name} cannot print as ${format}\\.\n`),
        );
        const listed = /To resolve, use --format (.*)\.\n$/.exec(run.stderr)?.[1] ?? '';
        expect(listed.split(/, | or /)).toEqual(formats);
      }
    },
  );

  it.each(WITH_FORMAT.filter(([name]) => RUN_ELSEWHERE[name] === undefined).map(([name]) => name))(
    'aureus %s prints something different in each of its formats',
    async (name) => {
      const outputs = new Map<string, string>();
      for (const format of COMMANDS[name]?.formats ?? []) {
        const run = await runCliInProcess([...name.split(' '), '--format', format], repo.dir);
        expect(run.stderr).toBe('');
        outputs.set(format, run.stdout);
      }
      expect(new Set(outputs.values()).size).toBe(outputs.size);
    },
  );

  it('names the commands whose formats are run elsewhere, and only those', () => {
    for (const name of Object.keys(RUN_ELSEWHERE))
      expect(COMMANDS[name]?.accepts).toContain('format');
  });
});
