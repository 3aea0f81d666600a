// Pre-commit hook benchmark: `aureus hook pre-commit` as a whole process on a 10-file staged
// change in a repository of about 50,000 lines of real TypeScript, warm cache, side by side with
// lint-staged running ESLint on the same staged files (what a husky pre-commit hook usually runs),
// as a ratio. Run by `npm run bench`, which builds first. Targets (the issue): AUREUS under
// 400 ms wall, and at least 3× faster than lint-staged + ESLint.
//
// The repository: rxjs@7.8.2's `src/` and zod@4.6.7's `src/v4/{core,classic,mini,locales}`
// (their own tests left out), from the reference code bases of scripts/reference/ (fetched from
// the npm registry when missing; offline once fetched), committed into one fresh git
// repository with a policy. The change: a small function of 7 lines appended to 10 files
// spread over the tree, staged.
//
// Rows, each a whole process from spawn to exit, the median of 7 runs (process-timing.mjs):
//   AUREUS, 10 files staged  `aureus hook pre-commit` after one untimed run filled the facts
//                            cache (the base's files were parsed by that run, the index's too);
//   lint-staged + ESLint     `lint-staged --config <tmp>` whose task is ESLint with the flat config
//                            of bench/check.mjs (@typescript-eslint/parser, no type information,
//                            complexity, max-lines, max-lines-per-function, max-depth, max-params,
//                            max-classes-per-file at their defaults), no --cache (lint-staged setups
//                            rarely use one, and the staged files changed anyway);
//   ESLint alone             the same ESLint on the same 10 files, without lint-staged;
//   AUREUS, nothing staged   the exit-at-once path;
//   node -e 0                the floor every Node.js tool pays to start.
// Both tools are started as `node <their bin>`, not through npx (which adds ~0.8 s of npm here).
//
// Each run is checked, else the benchmark fails: AUREUS exits 0 or 1 and prints a verdict line;
// lint-staged exits 0 or 1 and leaves exactly the 10 files staged; ESLint (run alone, JSON)
// linted exactly those 10 files.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AUREUS, fetchCodebases } from '../scripts/reference/check-exactness.mjs';
import { ESLINT_COMPLEXITY_RULES } from './eslint-complexity-rules.mjs';
import {
  loadAverage,
  machineLine,
  ms,
  processTimer,
  runTimeLine,
  TIMED_ENV,
} from './process-timing.mjs';
import {
  buildReferenceRepository,
  countLines,
  REFERENCE_REPOSITORY,
  sources,
} from './reference-repository.mjs';

const RUNS = 7;
const TARGET_MS = 400;
const TARGET_RATIO = 3;
const STAGED_FILES = 10;
const RULES = ESLINT_COMPLEXITY_RULES;

const require = createRequire(import.meta.url);
const packageBin = (name, bin = name) => {
  const manifest = require.resolve(`${name}/package.json`);
  const { bin: bins, version } = require(manifest);
  return { path: join(dirname(manifest), typeof bins === 'string' ? bins : bins[bin]), version };
};
const ESLINT = packageBin('eslint');
const LINT_STAGED = packageBin('lint-staged');
const fromTsEslint = createRequire(require.resolve('typescript-eslint'));
const PARSER = fromTsEslint.resolve('@typescript-eslint/parser');

const GIT = ['-c', 'user.name=aureus-bench', '-c', 'user.email=bench@localhost'];
const GIT_ENV = { ...TIMED_ENV, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
for (const name of ['GIT_DIR', 'GIT_INDEX_FILE', 'GIT_WORK_TREE', 'HUSKY', 'AUREUS_OVERRIDE'])
  delete GIT_ENV[name];

const work = mkdtempSync(join(tmpdir(), 'aureus-bench-hook-'));
const { measure } = processTimer(work);
// AUREUS's caches (and compiled code) in the benchmark's own folder, never the user's.
const AUREUS_ENV = { ...GIT_ENV, AUREUS_CACHE_DIR: join(work, 'caches') };

function git(repo, args) {
  return execFileSync('git', [...GIT, ...args], { cwd: repo, env: GIT_ENV, encoding: 'utf8' });
}

/** Appends a 7-line function to 10 files spread evenly over the sorted list, and stages them. */
function stageChange(repo, files) {
  const step = Math.floor(files.length / STAGED_FILES);
  const chosen = Array.from({ length: STAGED_FILES }, (_, i) => files[i * step]);
  chosen.forEach((file, i) => {
    const text = readFileSync(join(repo, file), 'utf8');
    const added = `\nexport function benchAdded${i}(a: number, b: number): number {\n  if (a > b) {\n    return a - b;\n  }\n  return a + b;\n}\n`;
    writeFileSync(join(repo, file), `${text.endsWith('\n') ? text : `${text}\n`}${added}`);
  });
  git(repo, ['add', '--', ...chosen]);
  return chosen;
}

function writeConfigs() {
  const eslintConfig = join(work, 'eslint.config.mjs');
  const rules = Object.fromEntries(RULES.map((rule) => [rule, 'error']));
  writeFileSync(
    eslintConfig,
    [
      `import parser from ${JSON.stringify(pathToFileURL(PARSER).href)};`,
      'export default [',
      "  { files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],",
      '    languageOptions: { parser },',
      "    linterOptions: { reportUnusedDisableDirectives: 'off' },",
      `    rules: ${JSON.stringify(rules)} },`,
      '];',
      '',
    ].join('\n'),
  );
  const lintStagedConfig = join(work, 'lint-staged.config.json');
  const task = `${process.execPath} ${ESLINT.path} -c ${eslintConfig} --no-warn-ignored`;
  writeFileSync(lintStagedConfig, `${JSON.stringify({ '*.ts': task })}\n`);
  return { eslintConfig, lintStagedConfig };
}

/** The median run of `times` by wall time. */
async function median(times, once) {
  const runs = [];
  for (let i = 0; i < times; i++) runs.push(await once());
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];
}

async function aureusHook(repo, expectVerdict) {
  const run = await measure(process.execPath, [AUREUS, 'hook', 'pre-commit'], {
    cwd: repo,
    env: AUREUS_ENV,
    ok: [0, 1],
  });
  if (expectVerdict && !/^AUREUS: (PASS|WARN|BLOCK) — /.test(run.stdout)) {
    throw new Error(`aureus hook pre-commit printed no verdict: ${run.stdout.slice(0, 500)}`);
  }
  if (!expectVerdict && run.stdout !== '') {
    throw new Error(`aureus hook pre-commit with nothing staged printed: ${run.stdout}`);
  }
  return run;
}

async function eslintAlone(repo, eslintConfig, staged) {
  const args = [ESLINT.path, '-c', eslintConfig, '--no-warn-ignored', '--format', 'json'];
  const run = await measure(process.execPath, [...args, ...staged], { cwd: repo, ok: [0, 1] });
  const linted = JSON.parse(run.stdout).map((result) => relative(repo, result.filePath));
  if (linted.sort().join('\n') !== [...staged].sort().join('\n')) {
    throw new Error(`ESLint linted ${linted.length} files, ${staged.length} were staged`);
  }
  return run;
}

function verdictOf(stdout) {
  return /^AUREUS: (\S+)/.exec(stdout)?.[1] ?? '?';
}

async function main() {
  const start = process.hrtime.bigint();
  fetchCodebases();
  const repo = buildReferenceRepository(join(work, 'repo'), git);
  const files = sources(repo);
  const lines = countLines(repo, files);
  const staged = stageChange(repo, files);
  const { eslintConfig, lintStagedConfig } = writeConfigs();

  // Warm: the first run parses both sides and fills the caches.
  await aureusHook(repo, true);
  const aureus = await median(RUNS, () => aureusHook(repo, true));
  const lintStaged = await median(RUNS, () =>
    measure(process.execPath, [LINT_STAGED.path, '--config', lintStagedConfig, '--quiet'], {
      cwd: repo,
      env: GIT_ENV,
      ok: [0, 1],
    }),
  );
  // lint-staged hides and restores unstaged state around its tasks: it must leave the index as
  // it found it, or the rows after it would measure another change.
  const stagedNow = git(repo, ['diff', '--cached', '--name-only']).trim().split('\n');
  if (stagedNow.sort().join('\n') !== [...staged].sort().join('\n')) {
    throw new Error(
      `after lint-staged, ${stagedNow.length} files are staged, not the ${staged.length}`,
    );
  }
  const eslint = await median(RUNS, () => eslintAlone(repo, eslintConfig, staged));
  const floor = await median(RUNS, () => measure(process.execPath, ['-e', '0']));
  git(repo, ['reset', '-q']);
  const empty = await median(RUNS, () => aureusHook(repo, false));

  const ratio = lintStaged.ms / aureus.ms;
  const met = (ok) => (ok ? 'met' : 'NOT met');
  const rows = [
    [
      `AUREUS \`hook pre-commit\`, ${STAGED_FILES} files staged, warm cache`,
      aureus,
      `verdict ${verdictOf(aureus.stdout)}`,
    ],
    [
      `lint-staged ${LINT_STAGED.version} running ESLint ${ESLINT.version} on the same files`,
      lintStaged,
      `exit ${lintStaged.code}`,
    ],
    [`ESLint ${ESLINT.version} alone on the same files`, eslint, `exit ${eslint.code}`],
    ['AUREUS `hook pre-commit`, nothing staged', empty, 'exit 0, no output'],
    ['`node -e 0` (start-up floor)', floor, ''],
  ];
  process.stdout.write(
    [
      '## Pre-commit hook: `aureus hook pre-commit` and lint-staged + ESLint',
      '',
      `${machineLine()}. Load average before: ${loadAverage()}.`,
      `Repository: ${REFERENCE_REPOSITORY}: ${files.length} TypeScript files, ${lines.toLocaleString('en')} lines. Change: a 7-line function appended to ${STAGED_FILES} of them, staged.`,
      `ESLint: @typescript-eslint/parser (no type information); rules ${RULES.join(', ')} at their defaults. Each row: median of ${RUNS} whole-process runs.`,
      '',
      '| process | wall ms (median) | peak MiB | output |',
      '|---|---:|---:|---|',
      ...rows.map(
        ([label, run, note]) =>
          `| ${label} | ${ms(run.ms)} | ${run.peakKiB === null ? 'n/a' : (run.peakKiB / 1024).toFixed(0)} | ${note} |`,
      ),
      '',
      `- AUREUS wall time: ${ms(aureus.ms)} ms; target under ${TARGET_MS} ms: ${met(aureus.ms < TARGET_MS)}.`,
      `- lint-staged + ESLint / AUREUS: ${ratio.toFixed(2)}×; target at least ${TARGET_RATIO}×: ${met(ratio >= TARGET_RATIO)}.`,
      `- ESLint alone / AUREUS: ${(eslint.ms / aureus.ms).toFixed(2)}×.`,
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
  // AUREUS_BENCH_KEEP=1 leaves the repository in place, to profile the hook on it.
  if (process.env.AUREUS_BENCH_KEEP === '1') console.log(`Kept ${join(work, 'repo')}.`);
  else rmSync(work, { recursive: true, force: true });
}
