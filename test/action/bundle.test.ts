import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the Action bundle', () => {
  it('is the bundle of the current sources (rebuilt and compared byte for byte)', () => {
    const output = execFileSync(process.execPath, ['scripts/build-action.mjs', '--check'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(output).toMatch(/matches the sources/);
  });

  it('is what action.yml runs, on node24', () => {
    const action: unknown = parse(readFileSync(join(root, 'action.yml'), 'utf8'));
    expect(action).toMatchObject({ runs: { using: 'node24', main: 'dist/index.mjs' } });
  });

  it('is what builder/action.yml runs: script steps only, never a JavaScript action', () => {
    const builder: unknown = parse(readFileSync(join(root, 'builder', 'action.yml'), 'utf8'));
    expect(builder).toMatchObject({ runs: { using: 'composite' } });
    const steps: unknown[] = Reflect.get(Object(Reflect.get(Object(builder), 'runs')), 'steps');
    expect(steps.map((step) => Reflect.get(Object(step), 'run'))).toEqual([
      'node "$GITHUB_ACTION_PATH/../dist/builder.mjs" prepare',
      'node "$GITHUB_ACTION_PATH/../dist/builder.mjs" build',
    ]);
    expect(steps.filter((step) => Reflect.get(Object(step), 'uses') !== undefined)).toEqual([]);
    expect(existsSync(join(root, 'dist', 'builder.mjs'))).toBe(true);
  });
});
