// Whole-process timing for the benchmarks: wall time from spawn to exit, peak memory from GNU
// time, median of repeated runs. Shared by bench/analysis.mjs and bench/check.mjs.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TIME = '/usr/bin/time';
/**
 * Runs per row, by how long the first one took: this kind of machine (a shared 2-core VM) swings
 * a single run by ±30 %, so short rows, where the targets are tight and extra runs cheap, take
 * the median of more. One run past 20 s (the peers on large code bases).
 */
const RUNS_BY_FIRST_MS = [
  { under: 1_000, runs: 7 },
  { under: 5_000, runs: 5 },
  { under: 20_000, runs: 3 },
];

/**
 * The environment of every timed process: this one without NODE_EXTRA_CA_CERTS. Node 20 reads
 * and parses that certificate file at every start, before any script runs (~40 ms for Debian's
 * bundle on this kind of machine, where the variable is set; Node 22 reads it on first use).
 * None of the timed tools opens a TLS connection, so it would only add the same machine-made
 * constant to every row; `nodeStartLine` reports what it costs where it is set.
 */
export const TIMED_ENV = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name !== 'NODE_EXTRA_CA_CERTS'),
);

/** Timers that write GNU time's reports into `workDir`. */
export function processTimer(workDir) {
  let reports = 0;

  /**
   * One process, timed from spawn to exit; its peak RSS (KiB) and CPU time (ms) from GNU time, written to a file
   * so that the process's own stderr stays its own. Without GNU time, both are unknown (null).
   * Rejects unless the exit code is one of `ok`.
   */
  function measure(command, args, { ok = [0], ...options } = {}) {
    const report = join(workDir, `time-${reports++}.txt`);
    const withTime = existsSync(TIME);
    const [file, argv] = withTime
      ? [TIME, ['-f', '%M %U %S', '-o', report, command, ...args]]
      : [command, args];
    return new Promise((resolve, reject) => {
      const start = process.hrtime.bigint();
      let ms = 0;
      const child = spawn(file, argv, {
        cwd: ROOT,
        env: TIMED_ENV,
        ...options,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const stdout = [];
      const stderr = [];
      child.stdout.on('data', (chunk) => stdout.push(chunk));
      child.stderr.on('data', (chunk) => stderr.push(chunk));
      child.on('exit', () => {
        ms = Number(process.hrtime.bigint() - start) / 1e6;
      });
      child.on('error', reject);
      child.on('close', (code) => {
        const err = Buffer.concat(stderr).toString('utf8');
        if (!ok.includes(code)) {
          reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`));
          return;
        }
        // GNU time writes "Command exited with non-zero status 1" before its line: the last.
        const [peak, user, system] = withTime
          ? readFileSync(report, 'utf8').trim().split('\n').at(-1).split(' ').map(Number)
          : [];
        const peakKiB = peak ?? null;
        // CPU time (user + system): what a loaded machine stretches least of a run's time.
        const cpuMs = user === undefined ? null : (user + system) * 1000;
        resolve({ ms, peakKiB, cpuMs, code, stdout: Buffer.concat(stdout).toString('utf8') });
      });
    });
  }

  /** Median by wall time of 7, 5, 3 or 1 runs (RUNS_BY_FIRST_MS); peak memory over all runs. */
  async function repeat(once) {
    return (await interleave([once]))[0];
  }

  /**
   * `repeat` for several rows at once, their runs taken in turn (A B C A B C …), so that the
   * machine's drift over the minutes a code base takes weighs on every row alike and the ratios
   * between rows stay fair. Each row's number of runs follows its own first run.
   */
  async function interleave(onces) {
    const runs = [];
    for (const once of onces) runs.push([await once(0)]);
    const wanted = runs.map(
      ([first]) => RUNS_BY_FIRST_MS.find(({ under }) => first.ms < under)?.runs ?? 1,
    );
    for (let round = 1; round < Math.max(...wanted); round++) {
      for (const [row, once] of onces.entries()) {
        if (round < wanted[row]) runs[row].push(await once(round));
      }
    }
    return runs.map(medianOf);
  }

  return { measure, repeat, interleave };
}

function medianOf(runs) {
  const median = [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];
  const peaks = runs.map((run) => run.peakKiB).filter((peak) => peak !== null);
  return {
    ...median,
    runs: runs.length,
    peakKiB: peaks.length === 0 ? null : Math.max(...peaks),
    bound: runs.some((run) => run.bound),
  };
}

/** `Node v20…, 2 × <CPU>, 24 GiB`: the machine a table was measured on. */
export function machineLine() {
  const cpu = cpus();
  return `Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`;
}

/**
 * `node -e 0` as every timed process starts, and as this machine's own environment would start
 * it when that sets NODE_EXTRA_CA_CERTS (TIMED_ENV leaves it out).
 */
export async function nodeStartLine({ measure, repeat }) {
  const bare = await repeat(() => measure(process.execPath, ['-e', '0']));
  const text = `\`node -e 0\` ${ms(bare.ms)} ms (${mib(bare)} MiB)`;
  if (process.env.NODE_EXTRA_CA_CERTS === undefined) return text;
  const withCerts = await repeat(() =>
    measure(process.execPath, ['-e', '0'], { env: process.env }),
  );
  return `${text}; ${ms(withCerts.ms)} ms with this machine's NODE_EXTRA_CA_CERTS, which every timed process goes without`;
}

/** The 1, 5 and 15 minute load averages: other work on the machine skews every row. */
export function loadAverage() {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
}

/** `Benchmark run time: 12.3 s.` since `start` (process.hrtime.bigint()). */
export function runTimeLine(start) {
  return `Benchmark run time: ${(Number(process.hrtime.bigint() - start) / 1e9).toFixed(1)} s.`;
}

/**
 * Milliseconds as a whole number, and a run's peak memory in MiB ('n/a' without GNU time;
 * `≤` when only an upper bound is known, as for a tool run inside a wrapper process).
 */
export const ms = (value) => value.toFixed(0);
export const mib = (run) =>
  run.peakKiB === null ? 'n/a' : `${run.bound ? '≤ ' : ''}${(run.peakKiB / 1024).toFixed(0)}`;
