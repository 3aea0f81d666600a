import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COMMANDS } from '../../src/cli/command-table.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * The commands a help's usage lines describe: each line that starts with `aureus` names one by
 * its first one or two words (`aureus policy show [--format …]` is `policy show`).
 */
function describedCommands(help: string): Set<string> {
  const named = new Set<string>();
  for (const line of help.split('\n')) {
    const words = /^\s*aureus ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/.exec(line);
    if (words === null) continue;
    const pair = `${words[1]} ${words[2] ?? ''}`;
    named.add(COMMANDS[pair] === undefined ? (words[1] ?? '') : pair);
  }
  return named;
}

describe('aureus <command> --help', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    temp = await makeTempDir('command-help');
  });
  afterAll(() => temp.remove());

  it.each(Object.keys(COMMANDS))(
    'aureus %s --help describes that command and no other',
    async (name) => {
      const run = await runCliInProcess([...name.split(' '), '--help'], temp.path);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout.startsWith('Usage:\n')).toBe(true);
      expect([...describedCommands(run.stdout)]).toEqual([name]);
    },
  );

  it('aureus <group> --help describes every command of the group', async () => {
    for (const group of ['policy', 'ledger', 'memory', 'hook', 'hooks']) {
      const run = await runCliInProcess([group, '--help'], temp.path);
      expect(run.code).toBe(0);
      const members = Object.keys(COMMANDS).filter((name) => name.startsWith(`${group} `));
      expect([...describedCommands(run.stdout)].sort()).toEqual(members.sort());
    }
  });

  it.each(Object.keys(COMMANDS))(
    'aureus %s --help starts the descriptions of its options in one column',
    async (name) => {
      const run = await runCliInProcess([...name.split(' '), '--help'], temp.path);
      expect(optionColumns(run.stdout)).toEqual([]);
    },
  );
});

/**
 * The lines of an `Options:` block whose description starts in another column than the first
 * option's (`  --yes       allow …` under `  --task-file F  read …`), as `column: line`.
 */
function optionColumns(help: string): string[] {
  const misaligned: string[] = [];
  let column: number | undefined;
  let inOptions = false;
  for (const line of help.split('\n')) {
    if (/^\S.*:$/.test(line)) {
      inOptions = line === 'Options:';
      column = undefined;
      continue;
    }
    const option = /^ {2}--?\S+(?: [A-Z][A-Z_]*)? {2,}(?=\S)/.exec(line);
    if (!inOptions || option === null) continue;
    const start = option[0].length;
    column ??= start;
    if (start !== column) misaligned.push(`${start}: ${line}`);
  }
  return misaligned;
}
