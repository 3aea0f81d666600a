import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from '@jest/globals';

const run = promisify(execFile);

it('the committed types and validator match schemas/policy.schema.json', async () => {
  // `--check` regenerates in memory and exits 1 naming any stale file.
  const result = await run(process.execPath, ['scripts/generate-from-schemas.mjs', '--check']).then(
    () => 'up to date',
    (error: { stderr?: string }) => error.stderr ?? 'failed',
  );
  expect(result).toBe('up to date');
});
