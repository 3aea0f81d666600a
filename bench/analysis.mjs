// Whole-repository analysis benchmark: `aureus analyze` side by side with the parse-only floor,
// dependency-cruiser and madge, on the real TypeScript code bases of scripts/reference/ (fetched
// from the npm registry when missing; offline once fetched). Run by `npm run bench`, which builds
// first. One table per code base, then the ratios and whether each target is met.
//
// Every measurement is a whole process, timed from spawn to exit (what a user waits for), the
// median of 7 runs under 1 s, 5 under 5 s, 3 under 20 s, else 1 (process-timing.mjs), its peak
// memory the maximum resident set size GNU time reports over the runs. The rows the targets
// compare (the floors, cold, first run, the peer tools) take their runs in turn, so that the
// machine's drift weighs on them alike; warm and touched follow. Each code base, prepared as
// check-exactness.mjs does (a git repository, the policy that counts type-only imports, so that
// AUREUS answers the question the tools' default graphs answer), is measured as:
//   floor         bench/parse-floor.mjs: read every analysed file, parse it with oxc (and, for
//                 context, with `ts.createSourceFile`);
//   facts only    bench/facts-floor.mjs: the same files, AUREUS's own extraction of their facts on
//                 the threads AUREUS would use, and nothing else (no git, cache, resolution,
//                 graph or output): what the targets leave for all the rest shows against it;
//   cold          `aureus analyze --format json`, its caches (the benchmark's own folder, never the
//                 user's: check-exactness.mjs CACHE_DIR) emptied before each run (large
//                 runs parse TS/JS on one worker thread per core: the notes say on how many; the
//                 floor is one thread, so the line under the ratios says what the
//                 dependency-cruiser target asks for against it). The compiled code AUREUS keeps
//                 per user (src/memory/compiled-code-cache.ts; here in the benchmark's own folder)
//                 is kept, as it is on any machine after AUREUS's first run;
//   first run     the same with that folder empty too: what the very first run on a machine
//                 pays (TypeScript compiled anew, and kept);
//   warm          the same again, nothing changed;
//   10 touched    10 tracked sources edited in the working tree (a new export appended, new text
//                 each run, so new blob ids), then restored with `git checkout -- .`;
//   tools         dependency-cruiser and madge through the reference scripts, whose own timing is
//                 the tool process's spawn to exit. They run inside a small wrapper process, so
//                 the peak memory GNU time reports is the maximum over the wrapper and the tool
//                 processes (wait4 folds in reaped children); the wrapper's own peak is checked
//                 to be lower, else the figure is marked as an upper bound ("≤"). Each tool
//                 runs twice per call (every import, then the run-time reading): its time is
//                 the first run's, its memory the larger of the two.
// Each AUREUS run's own stats are checked (cold parses every file, warm none, touched ten), and
// the extraction must read the files the floor reads, so a row cannot silently measure
// something else.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AUREUS,
  CACHE_DIR,
  clearCache,
  fetchCodebases,
  git,
  prepareRepository,
  writePolicies,
} from '../scripts/reference/check-exactness.mjs';
import { CODEBASES, sourceFiles } from '../scripts/reference/codebases.mjs';
import {
  loadAverage,
  machineLine,
  mib,
  ms,
  nodeStartLine,
  processTimer,
  runTimeLine,
  TIMED_ENV,
} from './process-timing.mjs';
import { withinReadLimit } from './read-limit.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FLOOR = fileURLToPath(new URL('./parse-floor.mjs', import.meta.url));
const FACTS_FLOOR = fileURLToPath(new URL('./facts-floor.mjs', import.meta.url));
const TOUCHED = 10;
const TARGETS = { cruiserOverCold: 4, coldOverFloor: 2, touchedMs: 300 };

const work = mkdtempSync(join(tmpdir(), 'aureus-bench-analysis-'));
const { measure, repeat, interleave } = processTimer(work);
// Not the user's own compiled code: every run of the benchmark starts from the same state.
const CODE_CACHE = join(work, 'code-cache');

function aureusRun(repo, policy, codeCache = CODE_CACHE) {
  return measure(
    process.execPath,
    [AUREUS, 'analyze', '--repo', repo, '--format', 'json', '--policy', policy],
    { env: { ...TIMED_ENV, AUREUS_CACHE_DIR: CACHE_DIR, AUREUS_CODE_CACHE: codeCache } },
  ).then((run) => ({ ...run, result: JSON.parse(run.stdout) }));
}

/**
 * Fails the benchmark when a run did not do the work its row claims. Files AUREUS does not read
 * (over its 1 MiB blob limit, listed in `skipped`) are neither parsed nor cached.
 */
function expectStats(label, run, parsed, cached) {
  const { stats, skipped } = run.result;
  const readable = stats.sourceFiles - skipped.length;
  const want = { parsed: parsed(readable), cached: cached(readable) };
  if (stats.parsed !== want.parsed || stats.cached !== want.cached) {
    throw new Error(
      `${label}: expected ${want.parsed} parsed / ${want.cached} cached, got ${stats.parsed} / ${stats.cached}`,
    );
  }
  return run;
}

/** Ten files spread over the sorted list (different folders), among those AUREUS reads. */
function filesToTouch(repo, files) {
  const readable = files.filter((file) => withinReadLimit(repo, file));
  return Array.from(
    { length: TOUCHED },
    (_, i) => readable[Math.floor((i * readable.length) / TOUCHED)],
  );
}

let stamp = Date.now();
/** Appends a new export to each file: new contents (new blob ids) every call. */
function touch(repo, files) {
  for (const file of files) {
    stamp += 1;
    const path = join(repo, file);
    const newline = readFileSync(path, 'utf8').endsWith('\n') ? '' : '\n';
    appendFileSync(path, `${newline}export const __aureusBench${stamp} = ${stamp};\n`);
  }
}

/** The reference scripts' runs, in a wrapper process: see the header for what is measured. */
const TOOL_WORKER = `
const [url, name, dir, sources] = process.argv.slice(1);
const run = (await import(url))[name];
const result = await run(dir, sources);
process.stdout.write(JSON.stringify({
  seconds: result.seconds,
  secondsWithoutTypeImports: result.secondsWithoutTypeImports,
  version: result.version,
  files: result.files,
  components: result.summary.all.components,
  wrapperPeakKiB: process.resourceUsage().maxRSS,
}));
`;

async function toolRun(script, name, repo, sources) {
  const url = new URL(`../scripts/reference/${script}`, import.meta.url).href;
  const run = await measure(process.execPath, [
    '--input-type=module',
    '-e',
    TOOL_WORKER,
    url,
    name,
    repo,
    sources,
  ]);
  const tool = JSON.parse(run.stdout);
  return {
    ms: tool.seconds * 1000,
    peakKiB: run.peakKiB,
    bound: run.peakKiB !== null && tool.wrapperPeakKiB >= run.peakKiB,
    tool,
  };
}

function countLines(repo, files) {
  let lines = 0;
  for (const file of files) {
    const text = readFileSync(join(repo, file), 'utf8');
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines += 1;
  }
  return lines;
}

async function benchCodebase(codebase) {
  const repo = prepareRepository(codebase);
  const policy = writePolicies(codebase).all;
  const files = sourceFiles(repo, codebase.sources);
  const n = files.length;
  const coldRun = (codeCache) => {
    clearCache();
    return aureusRun(repo, policy, codeCache).then((run) =>
      expectStats(
        'cold',
        run,
        (all) => all,
        () => 0,
      ),
    );
  };
  // The rows the targets compare, in turn: every cold run leaves the cache complete for warm.
  const [floor, floorTypeScript, factsOnly, first, cold, cruiser, madge] = await interleave([
    () => measure(process.execPath, [FLOOR, repo, codebase.sources, 'oxc']),
    () => measure(process.execPath, [FLOOR, repo, codebase.sources, 'typescript']),
    () => measure(process.execPath, [FACTS_FLOOR, repo, codebase.sources]),
    () => coldRun(mkdtempSync(join(work, 'first-run-'))),
    () => coldRun(CODE_CACHE),
    () =>
      toolRun('dependency-cruiser-cycles.mjs', 'dependencyCruiserCycles', repo, codebase.sources),
    () => toolRun('madge-cycles.mjs', 'madgeCycles', repo, codebase.sources),
  ]);
  // The extraction reads the files the floor parses, no more, no fewer.
  const counted = (run) => JSON.parse(run.stdout).files;
  if (counted(factsOnly) !== counted(floor)) {
    throw new Error(`facts only read ${counted(factsOnly)} files, the floor ${counted(floor)}`);
  }
  const warm = await repeat(() =>
    aureusRun(repo, policy).then((run) =>
      expectStats(
        'warm',
        run,
        () => 0,
        (all) => all,
      ),
    ),
  );
  const touched = await repeat(async () => {
    touch(repo, filesToTouch(repo, files));
    try {
      const run = await aureusRun(repo, policy);
      return expectStats(
        '10 touched',
        run,
        () => TOUCHED,
        (all) => all - TOUCHED,
      );
    } finally {
      git(repo, ['checkout', '--', '.']);
    }
  });
  return {
    name: `${codebase.name}@${codebase.version}`,
    files: n,
    lines: countLines(repo, files),
    floor,
    floorTypeScript,
    factsOnly,
    first,
    cold,
    warm,
    touched,
    cruiser,
    madge,
  };
}

const stats = (run) => {
  const { parsed, cached, parseThreads } = run.result.stats;
  const skipped = run.result.skipped.length;
  const threads = parseThreads > 1 ? ` on ${parseThreads} threads` : '';
  return `parsed ${parsed}${threads}, cached ${cached}${skipped > 0 ? `, ${skipped} not read (over 1 MiB)` : ''}`;
};
const floorNote = (run) => {
  const { files, overLimit } = JSON.parse(run.stdout);
  return `${files} files${overLimit > 0 ? `, ${overLimit} over 1 MiB left out as AUREUS does` : ''}`;
};
const factsNote = (run) => {
  const { files, threads } = JSON.parse(run.stdout);
  return `${files} files on ${threads} thread${threads === 1 ? '' : 's'}`;
};
const verdict = (met) => (met ? 'MET' : 'MISSED');

function printCodebase(r) {
  const rows = [
    ['parse-only floor (oxc `parseSync`, the fastest)', r.floor, floorNote(r.floor)],
    [
      'parse-only floor with `ts.createSourceFile`',
      r.floorTypeScript,
      floorNote(r.floorTypeScript),
    ],
    ["facts only (AUREUS's extraction, nothing around it)", r.factsOnly, factsNote(r.factsOnly)],
    ['AUREUS cold (cache deleted)', r.cold, stats(r.cold)],
    ['AUREUS cold, first run on the machine', r.first, 'no compiled code kept either'],
    ['AUREUS warm, nothing changed', r.warm, stats(r.warm)],
    [`AUREUS warm, ${TOUCHED} files touched`, r.touched, stats(r.touched)],
    [
      `dependency-cruiser ${r.cruiser.tool.version}`,
      r.cruiser,
      `${r.cruiser.tool.files} files, ${r.cruiser.tool.components} components`,
    ],
    [
      `madge ${r.madge.tool.version}`,
      r.madge,
      `${r.madge.tool.files} files, ${r.madge.tool.components} components; ${ms(r.madge.tool.secondsWithoutTypeImports * 1000)} ms without type imports`,
    ],
  ];
  const lines = [
    `### ${r.name}: ${r.files} files, ${r.lines.toLocaleString('en')} lines`,
    '',
    '| process | wall ms (median) | runs | peak MiB | notes |',
    '|---|---:|---:|---:|---|',
    ...rows.map(
      ([label, run, note]) => `| ${label} | ${ms(run.ms)} | ${run.runs} | ${mib(run)} | ${note} |`,
    ),
    '',
  ];
  const cruiserRatio = r.cruiser.ms / r.cold.ms;
  const floorRatio = r.cold.ms / r.floor.ms;
  lines.push(
    `- dependency-cruiser / AUREUS cold: ${cruiserRatio.toFixed(2)}× (target ≥ ${TARGETS.cruiserOverCold}×): ${verdict(cruiserRatio >= TARGETS.cruiserOverCold)}`,
    ceiling(r),
    `- madge / AUREUS cold: ${(r.madge.ms / r.cold.ms).toFixed(2)}× (no target)`,
    `- AUREUS cold / parse-only floor: ${floorRatio.toFixed(2)}× (target ≤ ${TARGETS.coldOverFloor}×): ${verdict(floorRatio <= TARGETS.coldOverFloor)}`,
    `  (${ms(r.floor.ms * TARGETS.coldOverFloor)} ms allowed; the extraction alone took ${ms(r.factsOnly.ms)} ms = ${(r.factsOnly.ms / r.floor.ms).toFixed(2)}× the floor, AUREUS cold ${(r.cold.ms / r.factsOnly.ms).toFixed(2)}× the extraction alone)`,
    `- AUREUS warm after ${TOUCHED} files: ${ms(r.touched.ms)} ms (target < ${TARGETS.touchedMs} ms): ${verdict(r.touched.ms < TARGETS.touchedMs)}`,
    '',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return [
    r.name,
    cruiserRatio >= TARGETS.cruiserOverCold,
    floorRatio <= TARGETS.coldOverFloor,
    r.touched.ms < TARGETS.touchedMs,
  ];
}

/**
 * What the dependency-cruiser target asks of this machine: AUREUS cold within dependency-cruiser's
 * time / 4, set against the parse-only floor (one thread). Where that is under the floor, only
 * parsing on several threads can meet it, and AUREUS states how many threads it used. The
 * extraction alone (facts-floor.mjs, on those threads) is the least any analysis of the facts
 * costs here: an allowance under it cannot be met by the work around the extraction.
 */
function ceiling(r) {
  const allowed = r.cruiser.ms / TARGETS.cruiserOverCold;
  const threads = r.cold.result.stats.parseThreads;
  const share = `${ms(allowed)} ms allowed = ${(allowed / r.floor.ms).toFixed(2)}× the one-thread floor`;
  const extraction = `the extraction alone took ${ms(r.factsOnly.ms)} ms`;
  return `  (${share}; ${extraction}; AUREUS cold parsed on ${threads} thread${threads === 1 ? '' : 's'} of ${availableParallelism()})`;
}

/** The commit measured, and whether the working tree differs from it (dist is built from it). */
function revision() {
  const run = (args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  const dirty = run(['status', '--porcelain', '--', 'src']) !== '';
  return `${run(['rev-parse', '--short', 'HEAD'])}${dirty ? ' with uncommitted changes in src/' : ''}`;
}

async function main() {
  const start = process.hrtime.bigint();
  fetchCodebases();
  const nodeStart = await nodeStartLine({ measure, repeat });
  const loadTs = await repeat(() => measure(process.execPath, ['-e', "require('typescript')"]));
  process.stdout.write(
    [
      '## Whole-repository analysis',
      '',
      `${machineLine()}; AUREUS at ${revision()}.`,
      `Load average before: ${loadAverage()} (other work on the machine skews every row: compare within one run).`,
      `Context: ${nodeStart}; \`require('typescript')\` ${ms(loadTs.ms)} ms (${mib(loadTs)} MiB), process start included.`,
      '',
      '',
    ].join('\n'),
  );
  const verdicts = [];
  for (const codebase of CODEBASES) verdicts.push(printCodebase(await benchCodebase(codebase)));
  const header = [
    'code base',
    `dependency-cruiser ≥ ${TARGETS.cruiserOverCold}× AUREUS cold`,
    `AUREUS cold ≤ ${TARGETS.coldOverFloor}× floor`,
    `${TOUCHED} touched < ${TARGETS.touchedMs} ms`,
  ];
  process.stdout.write(
    [
      '### Targets',
      '',
      `| ${header.join(' | ')} |`,
      `|${header.map(() => '---').join('|')}|`,
      ...verdicts.map(([name, ...met]) => `| ${name} | ${met.map(verdict).join(' | ')} |`),
      '',
      `Load average after: ${loadAverage()}.`,
      runTimeLine(start),
      '',
    ].join('\n'),
  );
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
