import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { unifiedDiff } from '../../src/init/unified-diff.js';
import { makeTempDir } from '../support/temp-dir.js';

const lines = (count: number, label = 'line') =>
  Array.from({ length: count }, (_, i) => `${label} ${i + 1}\n`).join('');

describe('unifiedDiff', () => {
  let dir: { path: string; remove: () => Promise<void> };
  beforeAll(async () => {
    dir = await makeTempDir('diff');
  });
  afterAll(() => dir.remove());

  /** What `git diff --no-index` says, from the first hunk on: the reference output. */
  function gitDiff(before: string, after: string): string {
    writeFileSync(join(dir.path, 'a'), before);
    writeFileSync(join(dir.path, 'b'), after);
    const { stdout } = spawnSync('git', ['diff', '--no-index', '--no-color', '-U3', 'a', 'b'], {
      cwd: dir.path,
      encoding: 'utf8',
    });
    // git adds the enclosing "function" after a hunk header; a YAML file has none to show.
    const hunks = stdout.includes('@@') ? stdout.slice(stdout.indexOf('@@')) : '';
    return hunks.replace(/^(@@ [^@]+ @@).*$/gm, '$1');
  }

  const cases: readonly [string, string, string][] = [
    ['one changed line', lines(10), lines(10).replace('line 5\n', 'LINE 5\n')],
    [
      'two far-apart changes',
      lines(30),
      lines(30).replace('line 2\n', 'x\n').replace('line 25\n', 'y\n'),
    ],
    [
      'two close changes in one hunk',
      lines(30),
      lines(30).replace('line 10\n', 'x\n').replace('line 15\n', 'y\n'),
    ],
    ['lines added at the end', lines(5), `${lines(5)}six\nseven\n`],
    ['lines removed at the start', lines(8), lines(8).replace('line 1\nline 2\n', '')],
    ['from nothing', '', lines(3)],
  ];

  it.each(cases)('matches git diff hunks for %s', (_, before, after) => {
    const diff = unifiedDiff(before, after, ['a', 'b']);
    expect(diff.split('\n').slice(0, 2)).toEqual(['--- a', '+++ b']);
    expect(diff.slice(diff.indexOf('@@'))).toBe(gitDiff(before, after));
  });

  it('is empty for equal texts', () => {
    expect(unifiedDiff(lines(3), lines(3), ['a', 'b'])).toBe('');
  });
});
