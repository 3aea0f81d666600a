import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';
import { MALFORMED_POLICIES } from './malformed-policy-corpus.js';

describe('a malformed .aureus/policy.yaml', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    temp = await makeTempDir('policy-corpus');
  });
  afterAll(() => temp.remove());

  it('has a corpus of at least 25 cases', () => {
    expect(MALFORMED_POLICIES.length).toBeGreaterThanOrEqual(25);
  });

  it.each(MALFORMED_POLICIES.map((entry, index) => [entry.name, index] as const))(
    '%s: exit 2 with the exact file:line:column and hint',
    async (_name, index) => {
      const entry = MALFORMED_POLICIES[index];
      if (entry === undefined) throw new Error('no such case');
      const repo = join(temp.path, `case-${index}`);
      await mkdir(join(repo, '.aureus'), { recursive: true });
      const policy = join(repo, '.aureus', 'policy.yaml');
      if (typeof entry.content === 'function') await entry.content(policy);
      else await writeFile(policy, entry.content);

      const run = await runCliInProcess(['policy', 'validate'], repo);

      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.split('\n')[0]).toBe(entry.expected);
    },
  );
});
