// Whole-repository critique benchmark: `aureus check --all` side by side with ESLint 9 running
// only its complexity/size rules, on the real TypeScript code bases of scripts/reference/ (fetched
// from the npm registry when missing; offline once fetched). Run by `npm run bench`, which builds
// first. One table per code base, then the ratios ESLint / AUREUS, cold and warm.
//
// The two do not find the same things: AUREUS critiques the architecture (budgets, cycles, god
// classes, …), ESLint's rules measure functions and files. What is compared is what DESIGN.md's
// "Performance" asks of a gate: how long a whole-repository run keeps someone waiting.
//
// Every measurement is a whole process, timed from spawn to exit, the median of 7, 5, 3 or 1
// runs by length (process-timing.mjs, as bench/analysis.mjs does), its peak memory the maximum
// resident set size GNU time reports over the runs. Each code base is prepared as check-exactness.mjs does (a
// git repository; the runtime-cycles policy, whose `paths.ignore` leaves AUREUS exactly the
// `src/**/*.ts` sources) and measured as:
//   AUREUS cold   `aureus check --all --format json`, its caches (the benchmark's own folder:
//                 check-exactness.mjs CACHE_DIR) emptied before each run;
//   AUREUS warm   the same again, nothing changed;
//   ESLint cold   `eslint -c <flat config> --no-warn-ignored --format json src`, no `--cache`;
//   ESLint warm   the same with `--cache --cache-location <tmp>`, after one untimed run filled it.
// The flat config lives in a temporary folder outside the repositories (so no config of the code
// base is looked up), loads only @typescript-eslint/parser (no type information, no plugin), and
// turns on complexity, max-lines, max-lines-per-function, max-depth, max-params and
// max-classes-per-file at ESLint's default thresholds.
//
// Each run is checked, else the benchmark fails: AUREUS exits 0 or 1 and prints JSON with a
// `verdict`; ESLint exits 0 or 1 (2 is a crash or a bad config), linted exactly the code base's
// sources and could parse all of them; warm runs answer what cold runs answered.
//
// measure() and repeat() come from bench/process-timing.mjs; `ok` lists the exit codes a gate
// and a linter use for "found something".
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  AUREUS,
  CACHE_DIR,
  clearCache,
  fetchCodebases,
  prepareRepository,
  writePolicies,
} from '../scripts/reference/check-exactness.mjs';
import { CODEBASES, sourceFiles } from '../scripts/reference/codebases.mjs';
import { ESLINT_COMPLEXITY_RULES } from './eslint-complexity-rules.mjs';
import {
  loadAverage,
  machineLine,
  mib,
  ms,
  processTimer,
  runTimeLine,
  TIMED_ENV,
} from './process-timing.mjs';
import { withinReadLimit } from './read-limit.mjs';

const RULES = ESLINT_COMPLEXITY_RULES;

const require = createRequire(import.meta.url);
const ESLINT_PACKAGE = require.resolve('eslint/package.json');
const ESLINT_VERSION = require(ESLINT_PACKAGE).version;
const ESLINT = join(dirname(ESLINT_PACKAGE), require(ESLINT_PACKAGE).bin.eslint);
// The parser alone, resolved through typescript-eslint (whose dependency it is): loading the
// whole typescript-eslint package would also load its plugin, which these rules do not need.
const fromTsEslint = createRequire(require.resolve('typescript-eslint'));
const PARSER = fromTsEslint.resolve('@typescript-eslint/parser');
const PARSER_VERSION = fromTsEslint('@typescript-eslint/parser/package.json').version;

const work = mkdtempSync(join(tmpdir(), 'aureus-bench-check-'));
const { measure, repeat } = processTimer(work);

function countBy(items, key) {
  const counts = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

async function aureusRun(repo, policy) {
  const args = [AUREUS, 'check', '--all', '--repo', repo, '--format', 'json', '--policy', policy];
  // 0 pass or warn, 1 block; 2 is an incomplete check or an error, not a measurement.
  const env = { ...TIMED_ENV, AUREUS_CACHE_DIR: CACHE_DIR };
  const run = await measure(process.execPath, args, { ok: [0, 1], env });
  let result;
  try {
    result = JSON.parse(run.stdout);
  } catch (error) {
    throw new Error(`aureus check --all on ${repo}: output is not JSON (${error.message})`);
  }
  if (typeof result.verdict !== 'string' || !Array.isArray(result.findings)) {
    throw new Error(`aureus check --all on ${repo}: no verdict or findings in its JSON`);
  }
  return {
    ...run,
    verdict: result.verdict,
    counts: countBy(result.findings, (finding) => finding.ruleId),
  };
}

/**
 * The flat config: the code base's sources only (declaration files and JavaScript left out, as
 * AUREUS's policy leaves them out), the six rules at their defaults, nothing else. Directives in
 * the code base's comments naming rules not loaded here still produce problems ("Definition for
 * rule … was not found"): they are counted apart, not as complexity problems.
 */
function writeEslintConfig() {
  const file = join(work, 'eslint.config.mjs');
  const rules = Object.fromEntries(RULES.map((rule) => [rule, 'error']));
  const text = [
    `import parser from ${JSON.stringify(pathToFileURL(PARSER).href)};`,
    'export default [',
    "  { ignores: ['**/*.d.ts', '**/*.d.mts', '**/*.d.cts', '**/*.{js,mjs,cjs,jsx}'] },",
    '  {',
    "    files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],",
    '    languageOptions: { parser },',
    // Unused disable directives are the code base's business, not a size rule's.
    "    linterOptions: { reportUnusedDisableDirectives: 'off' },",
    `    rules: ${JSON.stringify(rules)},`,
    '  },',
    '];',
    '',
  ].join('\n');
  writeFileSync(file, text);
  return file;
}

async function eslintRun(codebase, repo, config, cacheArgs) {
  const args = [ESLINT, '-c', config, '--no-warn-ignored', '--format', 'json', ...cacheArgs];
  const run = await measure(process.execPath, [...args, codebase.sources], {
    cwd: repo,
    ok: [0, 1],
  });
  const results = JSON.parse(run.stdout);
  expectLinted(repo, codebase, results);
  const messages = results.flatMap((result) => result.messages);
  const fatal = messages.filter((message) => message.fatal);
  if (fatal.length > 0) {
    throw new Error(`ESLint could not parse ${fatal.length} files in ${repo}: ${fatal[0].message}`);
  }
  const ours = messages.filter((message) => RULES.includes(message.ruleId));
  return {
    ...run,
    counts: countBy(ours, (message) => message.ruleId),
    others: messages.length - ours.length,
  };
}

/** ESLint must have linted exactly the files AUREUS's policy leaves it, or the rows differ. */
function expectLinted(repo, codebase, results) {
  const linted = results.map((result) => relative(repo, result.filePath).replaceAll('\\', '/'));
  const want = sourceFiles(repo, codebase.sources);
  const key = (files) => [...files].sort().join('\n');
  if (key(linted) !== key(want)) {
    throw new Error(
      `ESLint linted ${linted.length} files in ${repo}, the sources are ${want.length}`,
    );
  }
}

/** Fails when a cache changes the answer: a warm run must find what the cold run found. */
function expectSame(label, cold, warm) {
  const key = (run) => JSON.stringify(Object.entries(run.counts).sort());
  if (key(cold) !== key(warm) || cold.others !== warm.others) {
    throw new Error(`${label}: warm ${key(warm)} differs from cold ${key(cold)}`);
  }
}

async function benchAureus(repo, policy) {
  const cold = await repeat(() => {
    clearCache();
    return aureusRun(repo, policy);
  });
  // Without cached facts after a cold run, the warm rows would measure another cold run.
  if (!existsSync(join(CACHE_DIR, 'facts'))) {
    throw new Error(`aureus check --all on ${repo} left no facts in ${CACHE_DIR}`);
  }
  const warm = await repeat(() => aureusRun(repo, policy));
  expectSame('AUREUS', cold, warm);
  return { cold, warm };
}

async function benchEslint(codebase, repo, config) {
  const cold = await repeat(() => eslintRun(codebase, repo, config, []));
  const cacheFile = join(work, `eslintcache-${codebase.name}`);
  const cacheArgs = ['--cache', '--cache-location', cacheFile];
  await eslintRun(codebase, repo, config, cacheArgs);
  if (!existsSync(cacheFile)) throw new Error(`ESLint wrote no cache at ${cacheFile}`);
  const warm = await repeat(() => eslintRun(codebase, repo, config, cacheArgs));
  expectSame('ESLint', cold, warm);
  return { cold, warm };
}

function countLines(repo, files) {
  let lines = 0;
  for (const file of files) {
    const text = readFileSync(join(repo, file), 'utf8');
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines += 1;
  }
  return lines;
}

async function benchCodebase(codebase, config) {
  const repo = prepareRepository(codebase);
  const policy = writePolicies(codebase).runtime;
  const files = sourceFiles(repo, codebase.sources);
  return {
    name: `${codebase.name}@${codebase.version}`,
    files: files.length,
    lines: countLines(repo, files),
    // AUREUS does not read blobs over 1 MiB; ESLint does: a difference in input, shown.
    overLimit: files.filter((file) => !withinReadLimit(repo, file)).length,
    aureus: await benchAureus(repo, policy),
    eslint: await benchEslint(codebase, repo, config),
  };
}

const sum = (counts) => Object.values(counts).reduce((total, n) => total + n, 0);
const byRule = (counts) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rule, n]) => `${rule} ${n}`)
    .join(', ');
const aureusNote = (run) =>
  `verdict ${run.verdict}; ${sum(run.counts)} findings: ${byRule(run.counts)}`;
const eslintNote = (run) =>
  `${sum(run.counts)} problems: ${byRule(run.counts)}` +
  (run.others > 0 ? `; +${run.others} from directives naming rules not loaded` : '');

/** "ESLint / AUREUS 3.10× — AUREUS faster": the ratio and, plainly, who won. */
function ratio(eslint, aureus) {
  const value = eslint.ms / aureus.ms;
  const faster = value > 1 ? 'AUREUS faster' : value < 1 ? 'ESLint faster' : 'tie';
  return { value, text: `${value.toFixed(2)}× (${faster})` };
}

function printCodebase(r) {
  const rows = [
    ['AUREUS `check --all` cold (cache deleted)', r.aureus.cold, aureusNote(r.aureus.cold)],
    ['AUREUS `check --all` warm', r.aureus.warm, aureusNote(r.aureus.warm)],
    [`ESLint ${ESLINT_VERSION} cold (no --cache)`, r.eslint.cold, eslintNote(r.eslint.cold)],
    [`ESLint ${ESLINT_VERSION} warm (--cache, filled)`, r.eslint.warm, eslintNote(r.eslint.warm)],
  ];
  const skipped =
    r.overLimit > 0
      ? `; ${r.overLimit} over 1 MiB, which AUREUS does not read and ESLint does`
      : '';
  const lines = [
    `### ${r.name}: ${r.files} files, ${r.lines.toLocaleString('en')} lines${skipped}`,
    '',
    '| process | wall ms (median) | runs | peak MiB | output |',
    '|---|---:|---:|---:|---|',
    ...rows.map(
      ([label, run, note]) => `| ${label} | ${ms(run.ms)} | ${run.runs} | ${mib(run)} | ${note} |`,
    ),
    '',
    `- ESLint / AUREUS cold: ${ratio(r.eslint.cold, r.aureus.cold).text}`,
    `- ESLint / AUREUS warm: ${ratio(r.eslint.warm, r.aureus.warm).text}`,
    '',
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

function printSummary(results) {
  const header = ['code base', 'ESLint / AUREUS cold', 'ESLint / AUREUS warm'];
  const ratios = results.flatMap((r) => [
    ratio(r.eslint.cold, r.aureus.cold).value,
    ratio(r.eslint.warm, r.aureus.warm).value,
  ]);
  const wins = ratios.filter((value) => value > 1).length;
  const who =
    wins === ratios.length
      ? 'AUREUS is faster than ESLint in every comparison'
      : `AUREUS is faster in ${wins} of ${ratios.length} comparisons, ESLint in the others`;
  process.stdout.write(
    [
      '### Ratios',
      '',
      `| ${header.join(' | ')} |`,
      `|${header.map(() => '---').join('|')}|`,
      ...results.map(
        (r) =>
          `| ${r.name} | ${ratio(r.eslint.cold, r.aureus.cold).text} | ${ratio(r.eslint.warm, r.aureus.warm).text} |`,
      ),
      '',
      `${who} (ratio > 1: ESLint takes longer).`,
      '',
    ].join('\n'),
  );
}

async function main() {
  const start = process.hrtime.bigint();
  fetchCodebases();
  const config = writeEslintConfig();
  process.stdout.write(
    [
      '## Whole-repository critique: `aureus check --all` and ESLint complexity rules',
      '',
      `${machineLine()}.`,
      `ESLint ${ESLINT_VERSION}, @typescript-eslint/parser ${PARSER_VERSION} (no type information); rules ${RULES.join(', ')} at their defaults.`,
      `Load average before: ${loadAverage()} (other work on the machine skews every row: compare within one run).`,
      '',
      '',
    ].join('\n'),
  );
  const results = [];
  for (const codebase of CODEBASES) {
    const result = await benchCodebase(codebase, config);
    printCodebase(result);
    results.push(result);
  }
  printSummary(results);
  process.stdout.write(
    ['', `Load average after: ${loadAverage()}.`, runTimeLine(start), ''].join('\n'),
  );
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
