// Benchmarks, side by side with the fastest baseline for the same work, reported as ratios.
// Run with `npm run bench` (it builds first). Medians of repeated runs on this machine.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { readJournal } from '../dist/memory/journal.js';
import { readPolicyFile } from '../dist/memory/policy-file.js';
import { TIMED_ENV } from './process-timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LEDGER_LINES = 10_000;

/** A repository folder with AUREUS's own policy and a ledger of realistic entries. */
function fixture() {
  const repo = mkdtempSync(join(tmpdir(), 'aureus-bench-'));
  mkdirSync(join(repo, '.aureus', 'local'), { recursive: true });
  writeFileSync(
    join(repo, '.aureus', 'policy.yaml'),
    readFileSync(join(root, '.aureus', 'policy.yaml')),
  );
  // Written with the documented line format, independently of the appender, so the reader is
  // also checked against the format's definition.
  let prev = '0'.repeat(64);
  const lines = [];
  for (let i = 0; i < LEDGER_LINES; i++) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    const record = {
      kind: 'check',
      head: createHash('sha1').update(String(i)).digest('hex'),
      verdict: i % 7 === 0 ? 'block' : 'pass',
      cost: {
        loc: i % 300,
        dependencies: 0,
        abstractions: 25,
        security: 10,
        files: 5,
        modules: 0,
        tool: 0,
        total: (i % 300) + 40,
      },
      budget: { before: 500, after: 460 - (i % 300) },
      findings: i % 7 === 0 ? ['god_class:src/core/engine.ts:Engine'] : [],
    };
    const body = `{"at":${JSON.stringify(at)},"prev":"${prev}","record":${JSON.stringify(record)}`;
    const hash = createHash('sha256').update(body).digest('hex');
    lines.push(`${body},"hash":"${hash}"}`);
    prev = hash;
  }
  writeFileSync(join(repo, '.aureus', 'local', 'ledger.jsonl'), `${lines.join('\n')}\n`);
  return repo;
}

async function median(runs, work) {
  for (let i = 0; i < 5; i++) await work();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await work();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function processMedian(runs, args, cwd) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, args, { cwd, stdio: 'ignore', env: AUREUS_ENV });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const repo = fixture();
// AUREUS's caches (compiled code among them) in a folder of the benchmark's, never the user's.
const caches = mkdtempSync(join(tmpdir(), 'aureus-bench-caches-'));
const AUREUS_ENV = { ...TIMED_ENV, AUREUS_CACHE_DIR: caches };
try {
  const policyPath = join(repo, '.aureus', 'policy.yaml');
  const ledgerPath = join(repo, '.aureus', 'local', 'ledger.jsonl');
  const check = await readJournal(ledgerPath);
  if (!check.intact || check.entries.length !== LEDGER_LINES)
    throw new Error('the bench ledger does not verify');

  const floor = await median(30, async () => {
    parse(readFileSync(policyPath, 'utf8'));
    for (const line of readFileSync(ledgerPath, 'utf8').split('\n')) if (line) JSON.parse(line);
  });
  const aureus = await median(30, async () => {
    await readPolicyFile(policyPath, '.aureus/policy.yaml', true);
    await readJournal(ledgerPath);
  });
  const nodeStart = processMedian(10, ['-e', '0'], repo);
  const cli = processMedian(10, [join(root, 'bin', 'aureus.js'), 'ledger', 'verify'], repo);

  const rows = [
    [
      'policy + 10,000-line ledger, in process',
      'read + YAML.parse + JSON.parse (no checks)',
      floor,
      'load, validate, verify every checksum and link',
      aureus,
    ],
    [
      '`aureus ledger verify`, whole process',
      '`node -e 0` (process start)',
      nodeStart,
      'start, load, verify, print',
      cli,
    ],
  ];
  console.log('| work | baseline | baseline ms | AUREUS | AUREUS ms | ratio |');
  console.log('|---|---|---:|---|---:|---:|');
  for (const [work, baseLabel, base, label, ours] of rows) {
    console.log(
      `| ${work} | ${baseLabel} | ${base.toFixed(1)} | ${label} | ${ours.toFixed(1)} | ${(ours / base).toFixed(2)}× |`,
    );
  }
  console.log(
    `\nPolicy + ${LEDGER_LINES.toLocaleString('en')}-line ledger load: ${aureus.toFixed(1)} ms (budget: well under 100 ms).`,
  );
} finally {
  rmSync(repo, { recursive: true, force: true });
  rmSync(caches, { recursive: true, force: true });
}
