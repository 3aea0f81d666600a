import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { childEnvironment } from '../../src/agent/safety/child-environment.js';
import { commandRefusal } from '../../src/agent/safety/command-policy.js';
import { runCommand } from '../../src/agent/safety/run-command.js';
import { makeTempDir } from '../support/temp-dir.js';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir('commands');
});
afterAll(() => temp.remove());

describe('commandRefusal', () => {
  const allowed = [
    ['npm', 'test'],
    ['bash', '-c', 'npm test'],
    ['curl', 'x'],
    ['git', 'push'],
    ['npm', 'install'],
    ['node', '-e', '1'],
    ['npm', 'publish'],
    ['npm', 'test', '--', '--config=/tmp/evil'],
  ];

  it('runs an exact match of an allowed command', () => {
    expect(commandRefusal(['npm', 'test'], allowed)).toBeUndefined();
  });

  it.each([
    [['bash', '-c', 'npm test'], /shell/],
    [['curl', 'x'], /network/],
    [['git', 'push'], /remote/],
    [['npm', 'install'], /--ignore-scripts/],
    [['node', '-e', '1'], /inline/],
    [['npm', 'publish'], /publishes/],
    [['npm', 'test', '--', '--config=/tmp/evil'], /outside/],
  ])('denies %j even when it is allow-listed', (argv, reason) => {
    expect(commandRefusal(argv, allowed)).toMatchObject({
      ok: false,
      refusedBy: 'safety',
      error: expect.stringMatching(reason),
    });
  });

  it.each([[['npm', 'test', 'extra']], [['npm']], [['npx', 'evil']], [['npm', 'test;', 'id']]])(
    'refuses %j: not an exact match',
    (argv) => {
      expect(commandRefusal(argv, allowed)).toMatchObject({
        refusedBy: 'safety',
        error: expect.stringContaining('not allowed'),
      });
    },
  );
});

describe('runCommand', () => {
  it('kills the whole process group at the timeout, a child that ignores SIGTERM included', async () => {
    const pidFile = join(temp.path, 'grandchild.pid');
    const grandchild = `process.on('SIGTERM',()=>{});require('fs').writeFileSync(${JSON.stringify(pidFile)},String(process.pid));setInterval(()=>{},1000)`;
    const leader = `require('child_process').spawn(process.execPath,['-e',${JSON.stringify(grandchild)}],{stdio:'inherit'});process.on('SIGTERM',()=>{});setInterval(()=>{},1000)`;
    const run = await runCommand([process.execPath, '-e', leader], {
      cwd: temp.path,
      env: childEnvironment(process.env, temp.path),
      timeoutMs: 1000,
      maxOutputBytes: 1000,
    });
    expect(run).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
    // 'close' came, so nothing holds the output open any more; the grandchild is gone too.
    // Killed means gone, or a zombie its new parent has not reaped yet (state Z in /proc).
    if (existsSync(pidFile)) {
      const stat = `/proc/${readFileSync(pidFile, 'utf8')}/stat`;
      const state = existsSync(stat) ? /\) (\S)/.exec(readFileSync(stat, 'utf8'))?.[1] : 'gone';
      expect(['gone', 'Z', 'X']).toContain(state);
    }
  });

  it('gives a child no secret-looking variable and no model key', async () => {
    const parent = {
      PATH: process.env.PATH ?? '',
      LANG: 'C.UTF-8',
      GITHUB_TOKEN: 'ghs_canary',
      ANTHROPIC_API_KEY: 'sk-ant-canary',
      MY_MODEL_KEY_VAR: 'canary-model',
      LOCAL_LLM: 'canary-named',
      DB_PASSWORD: 'canary-db',
      NPM_CONFIG__AUTH: 'canary-npm',
      AWS_REGION: 'eu-west-1',
      NODE_OPTIONS: '--require ./evil.js',
      HOME: '/home/someone',
    };
    const run = await runCommand(
      [process.execPath, '-e', 'console.log(JSON.stringify(process.env))'],
      {
        cwd: temp.path,
        env: childEnvironment(parent, join(temp.path, 'home'), ['LOCAL_LLM']),
        timeoutMs: 600_000,
        maxOutputBytes: 100_000,
      },
    );
    const env = JSON.parse(run.stdout) as Record<string, string>;
    expect(run.stdout).not.toMatch(/canary|eu-west-1|evil/);
    expect(env).toMatchObject({
      PATH: parent.PATH,
      LANG: 'C.UTF-8',
      HOME: join(temp.path, 'home'),
      CI: 'true',
    });
  });

  it('keeps the head and tail of a long output, and says how much it left out', async () => {
    const run = await runCommand(
      [
        process.execPath,
        '-e',
        "process.stdout.write('a'.repeat(500)+'b'.repeat(1000)+'c'.repeat(500))",
      ],
      {
        cwd: temp.path,
        env: childEnvironment(process.env, temp.path),
        timeoutMs: 600_000,
        maxOutputBytes: 1000,
      },
    );
    expect(run.stdout).toBe(`${'a'.repeat(500)}…[1000 bytes omitted]…${'c'.repeat(500)}`);
    expect(run.exitCode).toBe(0);
  });
});
