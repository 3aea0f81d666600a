import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { appendToJournal, readJournal } from '../../src/memory/journal.js';

// These tests run real processes against the compiled library in dist/ (as the CLI, hooks and
// the Action do); `npm test` builds it first.
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const support = join(repoRoot, 'test', 'memory', 'support');

let dir: string;
let journal: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  for (const module of ['journal', 'atomic-write']) {
    const built = join(repoRoot, 'dist', 'memory', `${module}.js`);
    const source = join(repoRoot, 'src', 'memory', `${module}.ts`);
    if (!existsSync(built)) {
      throw new Error(`${built} is missing: build first with \`npx tsc -p tsconfig.build.json\``);
    }
    if (statSync(built).mtimeMs < statSync(source).mtimeMs) {
      throw new Error(
        `${built} is older than ${source}: rebuild with \`npx tsc -p tsconfig.build.json\``,
      );
    }
  }
});

/**
 * Where the journals are written: a memory file system when the machine has one. What these tests
 * prove is the lock and the chain under contention, not durability; on a disk every append's fsync
 * serialises 10,000 appends behind the lock and the first test alone took over 90 s on a busy
 * machine, with the same interleavings to check.
 */
function scratchRoot(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return statSync('/dev/shm').isDirectory() ? '/dev/shm' : tmpdir();
  } catch {
    return tmpdir();
  }
}

beforeEach(async () => {
  dir = await mkdtemp(join(scratchRoot(), 'aureus-journal-concurrency-'));
  journal = join(dir, 'ledger.jsonl');
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await rm(dir, { recursive: true, force: true });
});

function start(script: string, args: string[]): ChildProcess {
  // stdin is a pipe for `--gated` writers, which wait for a line on it before appending.
  const child = spawn(process.execPath, [join(support, script), ...args], {
    stdio: [args.includes('--gated') ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

/** Resolves with the exit code; rejects with the child's stderr if it fails. */
function finished(child: ChildProcess): Promise<number | null> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0 || signal === 'SIGKILL') resolve(code);
      else reject(new Error(`child exited with ${code ?? signal}: ${stderr}`));
    });
  });
}

/** Resolves once the child has printed `count` lines on stdout. */
function printedLines(child: ChildProcess, count: number): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString().split('\n').length - 1;
      if (seen >= count) resolve();
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Writers, and appends each. Every writer is started and loaded before any appends (the gate),
 * so all of them contend from the first append to their last: each release of the lock is raced
 * for by up to 15 waiting processes, on a machine with a handful of cores at most. More writers
 * (50 × 200 once) added no interleaving a few cores can produce, only lock polling: every waiter
 * retries while the others append, so the CPU grew with writers × appends, and took 100 s.
 */
const WRITERS = 16;
const APPENDS = 125;
const LINES = WRITERS * APPENDS;

describe('many processes appending to one journal', () => {
  it(`${WRITERS} processes × ${APPENDS} appends, released at once: all lines valid, one unbroken chain`, async () => {
    const writers = Array.from({ length: WRITERS }, (_, id) =>
      start('append-many.mjs', [journal, String(APPENDS), `w${id}`, '0', '--gated']),
    );
    const exits = writers.map(finished);
    // Each says "ready" once loaded; one that fails first fails the test with its stderr.
    await Promise.all(
      writers.map((writer, at) => Promise.race([printedLines(writer, 1), exits[at]])),
    );
    const started = performance.now();
    for (const writer of writers) writer.stdin?.end('go\n');
    await Promise.all(exits);
    const appendMs = performance.now() - started;

    const text = await readFile(journal, 'utf8');
    const contents = await readJournal(journal);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n')).toHaveLength(LINES + 1);
    expect(contents.problems).toEqual([]);
    expect(contents.entries).toHaveLength(LINES);
    const pairs = new Set(contents.entries.map(({ record }) => `${record.id}/${record.i}`));
    expect(pairs.size).toBe(LINES);
    for (let id = 0; id < WRITERS; id++) {
      for (let i = 0; i < APPENDS; i++) expect(pairs.has(`w${id}/${i}`)).toBe(true);
    }
    expect(existsSync(`${journal}.lock`)).toBe(false);
    // How often consecutive lines come from different writers: shown, not asserted (it depends
    // on the scheduler), as evidence that the writers did interleave.
    const switches = contents.entries.filter(
      (entry, at) => at > 0 && entry.record.id !== contents.entries[at - 1]?.record.id,
    ).length;
    process.stdout.write(
      `${WRITERS} × ${APPENDS} appends took ${Math.round(appendMs)} ms; ${switches} changes of writer between consecutive lines\n`,
    );
  });
});

describe('a writer killed with SIGKILL', () => {
  it('leaves at most one torn last line; the next append recovers and chains on', async () => {
    const writer = start('append-many.mjs', [journal, 'forever', 'killed', String(48 * 1024)]);
    const exited = finished(writer);
    await printedLines(writer, 30);
    // A random moment, so that some runs land inside a write and some between writes.
    await sleep(Math.random() * 20);
    writer.kill('SIGKILL');
    await exited;

    const lineCount = (await readFile(journal, 'utf8')).split('\n').filter(Boolean).length;
    const afterKill = await readJournal(journal);
    expect(afterKill.problems.length).toBeLessThanOrEqual(1);
    for (const problem of afterKill.problems) {
      expect(problem).toMatchObject({ kind: 'torn', lineNumber: lineCount });
    }
    expect(afterKill.entries.length).toBeGreaterThanOrEqual(30);

    // If the kill landed while the lock was held, this waits until the lock goes stale.
    const started = performance.now();
    const written = await appendToJournal(journal, { id: 'survivor' });
    process.stdout.write(
      `after kill -9: ${afterKill.problems.length} torn line(s); next append took ${Math.round(performance.now() - started)} ms\n`,
    );
    const recovered = await readJournal(journal);
    expect(written.prev).toBe(afterKill.entries.at(-1)?.hash);
    expect(recovered.problems).toEqual(
      afterKill.problems.map((problem) =>
        expect.objectContaining({
          lineNumber: problem.lineNumber,
          kind: 'unparseable',
        }),
      ),
    );
    expect(recovered.entries.at(-1)?.record).toEqual({ id: 'survivor' });
    expect(recovered.entries).toHaveLength(afterKill.entries.length + 1);
  });

  it('leaves a lock behind that the next writer takes over once it is stale', async () => {
    const holder = start('hold-lock.mjs', [journal]);
    const exited = finished(holder);
    await printedLines(holder, 1);
    holder.kill('SIGKILL');
    await exited;
    expect((await stat(`${journal}.lock`)).isDirectory()).toBe(true);

    const started = performance.now();
    await appendToJournal(journal, { after: 'takeover' });
    const waited = performance.now() - started;

    // The lock was refreshed at most 2.5 s before the kill and goes stale after 5 s: the writer
    // waited for that (no upper bound: a busy machine may take any time, and a writer that gave
    // up would have thrown).
    expect(waited).toBeGreaterThan(2000);
    expect((await readJournal(journal)).entries.map((entry) => entry.record)).toEqual([
      { after: 'takeover' },
    ]);
    expect(existsSync(`${journal}.lock`)).toBe(false);
  });
});
