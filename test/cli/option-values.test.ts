import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('an option given without its value', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    temp = await makeTempDir('option-values');
  });
  afterAll(() => temp.remove());

  it('is refused in the CLI’s words, pointing at the help of the command it was given to', async () => {
    const run = await runCliInProcess(['check', '--base'], temp.path);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'aureus: --base needs a value.\nTo resolve, write one after it (--base VALUE); see aureus check --help.\n',
    );
  });

  it('names a command of two words, and the main help when no command came first', async () => {
    const query = await runCliInProcess(['ledger', 'query', '--kind'], temp.path);
    expect(query.code).toBe(2);
    expect(query.stderr).toContain('see aureus ledger query --help.');
    const bare = await runCliInProcess(['--repo'], temp.path);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe(
      'aureus: --repo needs a value.\nTo resolve, write one after it (--repo VALUE); see aureus --help.\n',
    );
  });
});
