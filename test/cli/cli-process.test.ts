import { execFile, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeTempDir } from '../support/temp-dir.js';

const BIN = resolve('bin/aureus.js');

interface ProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the installed command (bin/aureus.js over dist/) as a user would. */
function aureus(args: readonly string[], cwd: string): Promise<ProcessRun> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      done({ code, stdout, stderr });
    });
  });
}

describe('the aureus command', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    temp = await makeTempDir('cli');
    await mkdir(join(temp.path, '.aureus'));
  });
  afterAll(() => temp.remove());

  it('ends quietly with its own exit code when the reader closes the pipe first', async () => {
    // As `aureus policy show | head -0`: the output finds the pipe closed (EPIPE).
    const run = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(process.execPath, [BIN, 'policy', 'show'], {
        cwd: temp.path,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      child.on('close', (code) => done({ code, stderr }));
    });
    expect(run).toEqual({ code: 0, stderr: '' });
  });

  it('prints help and its version', async () => {
    const help = await aureus(['--help'], temp.path);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('aureus policy validate');
    const version = await aureus(['--version'], temp.path);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('exits 2 with file:line:col and a hint for a broken policy, from a subfolder too', async () => {
    await writeFile(
      join(temp.path, '.aureus', 'policy.yaml'),
      'version: 1\nbudgets:\n  core_files: lots\n',
    );
    await mkdir(join(temp.path, 'src', 'deep'), { recursive: true });
    const run = await aureus(['policy', 'validate'], join(temp.path, 'src', 'deep'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '../../.aureus/policy.yaml:3:15: budgets.core_files must be a whole number, not "lots". To resolve, write a whole number, for example 25 (the default).',
    );
    expect(run.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('names a policy file outside the repository by the path given, not one climbing out of it', async () => {
    const outside = join(tmpdir(), `aureus-absent-${process.pid}`, 'policy.yaml');
    const run = await aureus(['policy', 'validate', outside], temp.path);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`aureus: no policy file at ${outside}.`);
  });

  it('shows the stack of an error only with --debug', async () => {
    const plain = await aureus(['policy', 'validate', 'missing.yaml'], temp.path);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe(
      'aureus: no policy file at missing.yaml.\nTo resolve, check the path; `aureus policy show > .aureus/policy.yaml` writes the default policy with every setting explained.\n',
    );
    const debug = await aureus(['policy', 'validate', 'missing.yaml', '--debug'], temp.path);
    expect(debug.stderr).toMatch(/AureusError: no policy file[\s\S]*at /);
  });

  it('takes a command named like a property every object has for the unknown command it is', async () => {
    for (const words of [['constructor'], ['__proto__', 'x']]) {
      const run = await aureus(words, temp.path);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`unknown command "${words[0]}"`);
    }
    const option = await aureus(['toString', '--base'], temp.path);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain('see aureus --help');
    expect(option.stderr).not.toContain('aureus toString --help');
  });

  it('exits 2 for usage errors and suggests the intended word', async () => {
    const option = await aureus(['policy', 'show', '--fromat', 'json'], temp.path);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain('did you mean --format?');
    const command = await aureus(['ledgr', 'show'], temp.path);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('did you mean ledger?');
    const misplaced = await aureus(['ledger', 'show', '--policy', 'x.yaml'], temp.path);
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toContain('aureus ledger show does not take --policy.');
  });

  it('shows the effective policy as JSON with defaults filled in', async () => {
    await writeFile(
      join(temp.path, '.aureus', 'policy.yaml'),
      'version: 1\nbudgets:\n  core_files: 40\n',
    );
    const run = await aureus(['policy', 'show', '--format', 'json'], temp.path);
    expect(run.code).toBe(0);
    const policy = JSON.parse(run.stdout);
    expect(policy.budgets.core_files).toBe(40);
    expect(policy.budgets.core_modules).toBe(6);
  });
});
