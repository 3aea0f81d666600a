import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeTempDir } from '../support/temp-dir.js';

const BIN = resolve('bin/aureus.js');
const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir('serve');
});
afterAll(() => temp.remove());

/** The environment of `aureus serve`, without anything inherited that could change it. */
function appEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: temp.path,
    APP_ID: '4242',
    PRIVATE_KEY: privateKey,
    AUREUS_DATA_DIR: temp.path,
    LOG_LEVEL: 'fatal',
    ...extra,
  };
}

function run(env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, 'serve'], { cwd: temp.path, env }, (error, _out, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stderr });
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

describe('aureus serve', () => {
  it.each([
    ['no webhook secret', { NODE_ENV: 'production' }],
    [
      "probot's development secret in production",
      { NODE_ENV: 'production', WEBHOOK_SECRET: 'development' },
    ],
    ['no webhook secret outside production', {}],
  ])('refuses to start with %s (exit 2), naming the fix', async (_name, extra) => {
    const { code, stderr } = await run(appEnv(extra));
    expect(code).toBe(2);
    expect(stderr).toContain('WEBHOOK_SECRET');
    expect(stderr).toContain('To resolve');
    expect(stderr).not.toContain('PRIVATE KEY');
  });

  it('serves, answers /healthz, and stops on SIGTERM', async () => {
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, [BIN, 'serve'], {
      cwd: temp.path,
      env: appEnv({
        WEBHOOK_SECRET: 'a-long-enough-webhook-secret',
        PORT: String(port),
        HOST: '127.0.0.1',
      }),
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    for (let attempt = 0; attempt < 100 && !stderr.includes('webhooks at'); attempt += 1)
      await new Promise((wait) => setTimeout(wait, 100));
    expect(stderr).toContain(`webhooks at http://127.0.0.1:${port}/api/github/webhooks`);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const unsigned = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'ping',
        'x-github-delivery': '1',
      },
      body: '{}',
    });
    expect([400, 401]).toContain(unsigned.status);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
