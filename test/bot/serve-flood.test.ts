import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type GitHubApiDouble, startGitHubApiDouble } from '../support/github-api-double/index.js';
import { makeTempDir } from '../support/temp-dir.js';
import {
  type LargeDeliveryOutcome,
  postLargeDelivery,
  startLargeDelivery,
} from './support/large-delivery.js';

const BIN = resolve('bin/aureus.js');
const MIB = 1024 * 1024;
const SENDERS = 24;
/**
 * How much the server's peak resident memory may grow while it refuses a flood. The App holds at
 * most 100 MiB of unverified body bytes at once, whatever is sent; the rest of this bound is room
 * for the collector's lag and socket buffers (measured: 2–6 MiB when sizes are announced,
 * 120–140 MiB when they are not). A server that reads what it is sent grew 528 MiB under the first flood
 * and 589 MiB under the held one: the bound tells the two apart by a factor of two, on any
 * machine, since it measures bytes and not time.
 */
const MAX_PEAK_GROWTH = 300 * MIB;

/**
 * Each test starts its own server and moves hundreds of MiB over loopback: seconds of work on a
 * busy machine. What they assert is memory and status codes, never time.
 */
const ROOMY_TIMEOUT_MS = 300_000;

const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
let temp: Awaited<ReturnType<typeof makeTempDir>>;
let double: GitHubApiDouble;

beforeAll(async () => {
  temp = await makeTempDir('serve-flood');
  double = await startGitHubApiDouble();
});

afterAll(async () => {
  await double.close();
  await temp.remove();
});

interface Served {
  readonly webhookUrl: string;
  /** The server's peak resident memory since it started, in bytes (Linux's VmHWM). */
  peakMemory(): number;
  stop(): Promise<void>;
}

/** `aureus serve` in a process of its own, so that its memory is its own; one per test. */
async function serve(): Promise<Served> {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve'], {
    cwd: temp.path,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: temp.path,
      APP_ID: '4242',
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: 'the-flood-test-webhook-secret',
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      GITHUB_API_URL: double.url,
      AUREUS_DATA_DIR: temp.path,
      LOG_LEVEL: 'fatal',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  const webhookUrl = await new Promise<string>((done, fail) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /webhooks at (http:\S+)/.exec(stderr)?.[1];
      if (url !== undefined) done(url);
    });
    child.once('exit', (code) => fail(new Error(`aureus serve exited with ${code}: ${stderr}`)));
  });
  return {
    webhookUrl,
    peakMemory() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kib = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
      if (kib === undefined) throw new Error('no VmHWM in /proc/<pid>/status');
      return Number(kib) * 1024;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

/**
 * A refusal: an answer of `statuses`, or the connection cut by the server. The body may still
 * count as all sent when cut: its last megabytes can sit in the kernel's loopback buffers when
 * the server closes with them unread, and the reset that follows discards the answer the client
 * had not read yet (seen in CI: no status, `sentAll` true, ECONNRESET).
 */
function expectRefused(outcomes: readonly LargeDeliveryOutcome[], statuses: readonly number[]) {
  for (const outcome of outcomes) {
    if (outcome.status === undefined) expect(outcome.error).toMatch(/^(ECONNRESET|EPIPE)$/);
    else expect(statuses).toContain(outcome.status);
  }
}

/** Runs `senders` against a fresh server: what they saw, and the server's peak memory growth. */
async function againstServer(
  senders: (webhookUrl: string) => Promise<readonly LargeDeliveryOutcome[]>,
) {
  const served = await serve();
  try {
    const before = served.peakMemory();
    const outcomes = await senders(served.webhookUrl);
    return { outcomes, growth: served.peakMemory() - before };
  } finally {
    await served.stop();
  }
}

const flood = (chunked: boolean) =>
  againstServer((url) =>
    Promise.all(
      Array.from({ length: SENDERS }, () =>
        postLargeDelivery({ url, bytes: 30 * MIB, chunked, secret: 'forged' }),
      ),
    ),
  );

// /proc is Linux's; CI and these machines run Linux.
const onLinux = process.platform === 'linux' ? describe : describe.skip;

onLinux('aureus serve under a flood of forged 30 MiB deliveries', () => {
  it(
    `refuses ${SENDERS} at once that announce their size: 413, memory bounded, no API call`,
    async () => {
      const { outcomes, growth } = await flood(false);
      expectRefused(outcomes, [413]);
      expect(outcomes.some((outcome) => outcome.status === 413)).toBe(true);
      expect(growth).toBeLessThan(MAX_PEAK_GROWTH);
      expect(double.requests()).toEqual([]);
    },
    ROOMY_TIMEOUT_MS,
  );

  it(
    `refuses ${SENDERS} at once of unannounced size: 413 or 503, memory bounded, no API call`,
    async () => {
      const { outcomes, growth } = await flood(true);
      expectRefused(outcomes, [413, 503]);
      expect(growth).toBeLessThan(MAX_PEAK_GROWTH);
      expect(double.requests()).toEqual([]);
    },
    ROOMY_TIMEOUT_MS,
  );

  it(
    `holds ${SENDERS} forged bodies under the cap, all stopped mid-way, in bounded memory`,
    async () => {
      // Each sender writes 24 MiB of a 25 MiB body, then waits until every other one has too (or
      // was refused): a server that buffers whatever arrives holds 24 × 24 MiB at that moment.
      const { outcomes, growth } = await againstServer(async (url) => {
        const senders = Array.from({ length: SENDERS }, () =>
          startLargeDelivery({
            url,
            bytes: 25 * MIB,
            holdAfter: 24 * MIB,
            chunked: true,
            secret: 'forged',
          }),
        );
        await Promise.all(senders.map((sender) => sender.held));
        return Promise.all(senders.map((sender) => sender.finish()));
      });
      expectRefused(outcomes, [400, 503]);
      expect(outcomes.some((outcome) => outcome.status === 503)).toBe(true);
      expect(growth).toBeLessThan(MAX_PEAK_GROWTH);
      expect(double.requests()).toEqual([]);
    },
    ROOMY_TIMEOUT_MS,
  );
});
