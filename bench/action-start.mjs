// Start of the GitHub Action's bundles: what every run and every builder step pays before it
// does any work. `node dist/index.mjs` and `node dist/builder.mjs` with no runner variables
// load their part and stop at the first missing setting (exit 2), beside a bare `node -e 0`.
// CPU time (user + system), the measure a busy machine stretches least; medians. Each bundle
// with V8's compiled code kept and found (warm), kept but not found yet (cold: a first run on
// a fresh runner, which also writes it) and not kept (AUREUS_CODE_CACHE=off).
// Run with `node bench/action-start.mjs` after `npm run build:action`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  loadAverage,
  machineLine,
  ms,
  processTimer,
  runTimeLine,
  TIMED_ENV,
} from './process-timing.mjs';

const start = process.hrtime.bigint();
const loadBefore = loadAverage();
const work = mkdtempSync(join(tmpdir(), 'aureus-bench-action-start-'));
const { measure, interleave } = processTimer(work);
const ROOT = new URL('..', import.meta.url);
const BUNDLES = ['index.mjs', 'builder.mjs'];

/** A process with AUREUS's caches in the benchmark's own folder, never the user's. */
function started(bundle, codeCache) {
  return () => {
    const cold = codeCache === 'cold' ? mkdtempSync(join(work, 'cold-')) : undefined;
    const folder = cold ?? (codeCache === 'warm' ? join(work, 'warm') : 'off');
    return measure(process.execPath, [new URL(`dist/${bundle}`, ROOT).pathname], {
      ok: [2],
      cwd: work,
      env: { ...TIMED_ENV, AUREUS_CACHE_DIR: join(work, 'caches'), AUREUS_CODE_CACHE: folder },
    });
  };
}

try {
  // The warm folder filled once by each bundle.
  for (const bundle of BUNDLES) await started(bundle, 'warm')();
  const rows = [['`node -e 0`', () => measure(process.execPath, ['-e', '0'], { cwd: work })]];
  for (const bundle of BUNDLES)
    for (const codeCache of ['warm', 'cold', 'off'])
      rows.push([`\`dist/${bundle}\`, ${codeCache}`, started(bundle, codeCache)]);
  const results = await interleave(rows.map(([, once]) => once));
  console.log(`| start | CPU ms | wall ms | runs |\n|---|---:|---:|---:|`);
  rows.forEach(([name], index) => {
    const result = results[index];
    console.log(
      `| ${name} | ${ms(result.cpuMs ?? Number.NaN)} | ${ms(result.ms)} | ${result.runs} |`,
    );
  });
  console.log(`\n${machineLine()}; load average ${loadBefore} before, ${loadAverage()} after.`);
  console.log(runTimeLine(start));
} finally {
  rmSync(work, { recursive: true, force: true });
}
