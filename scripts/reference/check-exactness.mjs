// Usage: node scripts/reference/check-exactness.mjs [--parser auto|oxc|typescript] [--typescript-only]
//        [--compared-only] [--refresh]
// (or `npm run exactness`, which builds first). `npm test` passes --typescript-only: its jest
// tests make the same Python, Java and Go comparisons (test/scan/python-import-reference.test.ts,
// test/analysis/resolve/java-reference.test.ts, go-std-reference.test.ts), run once, not twice.
// It also passes --compared-only: madge's second run (without `import type`), which no
// comparison reads and which costs as much as its first, is left out of the table there.
//
// Checks that `aureus analyze` finds exactly the import cycles dependency-cruiser and madge find
// on real code: for each reference code base (fetched from the npm registry when missing, offline
// once fetched), AUREUS's `cycles` must equal the tools' strongly connected components, twice:
//   all      every import counted (policy count_type_only_imports: true), compared with
//            dependency-cruiser's (`tsPreCompilationDeps: true`) and madge's `all` components;
//   runtime  only the imports TypeScript's emit keeps (false), compared with dependency-cruiser's
//            default (`tsPreCompilationDeps: false`: it reads what `ts.transpileModule` emits).
//            madge has no such reading (`skipTypeImports` drops `import type` only): its column
//            is shown for reference and not compared.
// Components are compared as sets of sets (each tool sorts its list its own way). Exits 1 on any
// difference and prints the symmetric difference (components and files on one side only).
//
// Setup, all outside this repository (generated data): each code base's `repo/` folder becomes a
// git repository (AUREUS analyses tracked files), committed with an inline identity; the two
// policy files are written beside it. Their `paths.ignore` makes AUREUS see exactly the files the
// reference tools see (codebases.mjs `sourceFiles`): everything outside the sources folder,
// declaration files (`**/*.d.ts`), and, listed by name, the few other files inside it that AUREUS
// would analyse and the tools do not (rxjs ships `src/Rx.global.js`). The check fails when AUREUS's
// `stats.sourceFiles` is not the tools' file count, so the two never compare different inputs.
//
// The tools' answers are committed in scripts/reference/answers/ and reused while the key stored
// with each (the tool's packages, the scripts that drive it, the code base's tree) matches and its
// bytes are the ones hashed (kept-answers.mjs); otherwise they are computed, with one line saying
// the committed answer is stale, and `--refresh` (`npm run exactness:refresh`) rewrites them all.
// AUREUS_REFERENCE_FRESH=1 computes them without reading any: they cost about nine tenths of this
// check's CPU and never change on pinned inputs. The
// table says whether they were committed, kept (beside the code base) or computed.
//
// The first AUREUS run of each code base starts from an empty cache (a stale facts cache cannot
// hide a regression); the second runs warm, so the cache's round trip is checked as well.
//
// One intentional difference in input, none in output. AUREUS does not read blobs over 1 MiB
// (DEFAULT_MAX_BLOB_BYTES; reported in `skipped` as `too-large`): such a file has no facts, so no
// edge from or to it, so it is in no AUREUS cycle; the tools read it. effect@4.1.0 has two (3.2
// and 2.0 MB of vendored minified JavaScript in a string, no imports). The components are still
// compared exactly, with no rule applied: a skipped file can differ only by being in a tool's
// component, which fails the check, and the failure then names it as a skipped file. The table
// shows how many files AUREUS skipped, so the difference in input is never hidden. Otherwise both
// tools agree with each other on these code bases (compare-cycles.mjs), and so must AUREUS.
//
// Python: AUREUS's import graph (every file edge, type-only and deferred imports included) must
// equal, as a set, the edges CPython's own machinery finds (python-import-edges.py: ast for the
// statements, importlib for the names) on gyp, the Python package node-gyp ships
// (python-edges.mjs). No rule explains a difference: any edge on one side only fails the check.
// What an edge is (the module the statement names; no edge to the parent packages' __init__.py,
// a submodule for `from pkg import sub`) is written in the reference's header, and AUREUS reads
// it the same way (src/analysis/resolve/python-imports.ts).
// Java: AUREUS's file edges must equal those jdeps (the JDK's dependency tool) reads in the
// bytecode javac compiles from the JDK's own `jdk.httpserver` sources, every difference explained
// by one of two rules checked on the source (java-reference.mjs states them and how: types javac
// inferred that the code never writes; constants javac inlined and unused imports).
// Go: AUREUS's import edges between packages equal the go command's (`go list`, Debian's
// golang-go, installed when missing: go-package-edges.mjs) on the standard library's
// encoding/..., go/... and text/... packages, which ship with the go command (module `std`, so
// nothing is fetched). A policy makes each package one policy module, so AUREUS's `moduleEdges`
// are its file edges collapsed to folders; go list's are each package's `Imports` within the
// subset, twice: without test files (`Imports`) and with them (`Imports`, `TestImports` and
// `XTestImports`, less the package itself, which its external tests import). One rule makes the
// two comparable: go list builds for this machine's platform, where AUREUS evaluates no build
// constraint but `//go:build ignore` (any platform's cycle is a cycle). The policy therefore
// ignores `testdata/`, by name the files go list leaves out here (`IgnoredGoFiles`: other
// platforms', `//go:build ignore` programs), and `_test.go` files in the first run; the check
// fails when AUREUS's `stats.sourceFiles` is not go list's file count. The edges are then
// compared exactly.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CODEBASES, codebaseDir, DECLARATION, repoDir, sourceFiles } from './codebases.mjs';
import { dependencyCruiserCycles } from './dependency-cruiser-cycles.mjs';
import { compareGoStandardLibrary } from './go-package-edges.mjs';
import { checkJavaReference } from './java-reference.mjs';
import { keptAnswer } from './kept-answers.mjs';
import { madgeCycles } from './madge-cycles.mjs';
import {
  edgeDifference,
  PYTHON_CODEBASE,
  pythonCodebaseRepo,
  referenceEdges,
} from './python-edges.mjs';
import { GIT_ENV, git } from './reference-git.mjs';

const run = promisify(execFile);
export const AUREUS = fileURLToPath(new URL('../../bin/aureus.js', import.meta.url));
const FETCH = fileURLToPath(new URL('./fetch-codebases.mjs', import.meta.url));

export { GIT_ENV, git } from './reference-git.mjs';

/** Installs what is missing (fetch-codebases.mjs is idempotent and offline once done). */
export function fetchCodebases() {
  execFileSync(process.execPath, [FETCH], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * Makes `repo/` a git repository with everything committed, once. AUREUS's local store (the
 * ledger) is excluded (not ignored by a tracked .gitignore: the tree stays the package's), so
 * it is never committed. A working tree left edited (an interrupted benchmark) is restored to
 * the commit.
 */
export function prepareRepository(codebase) {
  const repo = repoDir(codebase);
  if (!existsSync(join(repo, '.git'))) git(repo, ['init', '-q']);
  // Also completes a repository whose first run stopped between init and commit.
  if (!hasCommit(repo)) {
    writeFileSync(join(repo, '.git', 'info', 'exclude'), '/.aureus/\n');
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', `${codebase.name}@${codebase.version}`]);
  }
  if (git(repo, ['status', '--porcelain', '--untracked-files=no']).trim() !== '') {
    process.stderr.write(`${repo}: restoring edited files to the commit\n`);
    // The index too: an edit left staged would survive a checkout from it.
    git(repo, ['reset', '-q', '--hard', 'HEAD']);
  }
  return repo;
}

function hasCommit(repo) {
  try {
    execFileSync('git', ['rev-parse', '--verify', '-q', 'HEAD'], {
      cwd: repo,
      env: GIT_ENV,
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * `paths.ignore` leaving AUREUS exactly the reference tools' files: top-level entries other than
 * the sources folder, declaration files, and tracked files inside the sources folder that are not
 * TypeScript sources (listed one by one; harmless for files AUREUS would not analyse anyway).
 */
export function ignoreGlobs(codebase) {
  const repo = repoDir(codebase);
  const tracked = git(repo, ['ls-files', '-z'])
    .split('\0')
    .filter((path) => path !== '');
  const inside = `${codebase.sources}/`;
  const seen = new Set(sourceFiles(repo, codebase.sources));
  const outside = new Set();
  const others = [];
  for (const path of tracked) {
    if (!path.startsWith(inside)) {
      const slash = path.indexOf('/');
      outside.add(slash === -1 ? path : `${path.slice(0, slash)}/**`);
    } else if (!seen.has(path) && !DECLARATION.test(path)) others.push(path);
  }
  const listed = [...[...outside].sort(), ...others];
  for (const path of listed) {
    // The policy's glob syntax has no escape (no backslashes allowed): refuse rather than guess.
    if (/[*?[\]{}()!+@]/.test(path)) throw new Error(`cannot ignore ${path} literally`);
  }
  return ['**/*.d.ts', '**/*.d.mts', '**/*.d.cts', ...listed];
}

/** The two policies, beside `repo/`: `{ all, runtime }` file paths. */
export function writePolicies(codebase) {
  const ignore = ignoreGlobs(codebase);
  const policy = (countTypeOnly) =>
    [
      'version: 1',
      'forbidden_patterns:',
      '  circular_dependency:',
      `    count_type_only_imports: ${countTypeOnly}`,
      'paths:',
      '  ignore:',
      ...ignore.map((glob) => `    - ${JSON.stringify(glob)}`),
      '',
    ].join('\n');
  const folder = codebaseDir(codebase);
  mkdirSync(folder, { recursive: true });
  const files = {
    all: join(folder, 'aureus-policy-all.yaml'),
    runtime: join(folder, 'aureus-policy-runtime.yaml'),
  };
  writeFileSync(files.all, policy(true));
  writeFileSync(files.runtime, policy(false));
  return files;
}

/**
 * AUREUS's caches for every AUREUS these scripts and the benchmarks start (they inherit it, or
 * are given it): a folder of their own, removed at exit, never the user's, so that a cold run is
 * cold and nothing is left behind. Compiled code goes to `code/` in it unless AUREUS_CODE_CACHE
 * says otherwise.
 */
export const CACHE_DIR = mkdtempSync(join(tmpdir(), 'aureus-reference-caches-'));
process.env.AUREUS_CACHE_DIR = CACHE_DIR;
process.on('exit', () => rmSync(CACHE_DIR, { recursive: true, force: true }));

/** Empties AUREUS's caches of facts, texts, parsed policies, base sides and import answers. */
export function clearCache() {
  for (const name of ['facts', 'texts', 'policies', 'resolutions', 'sides'])
    rmSync(join(CACHE_DIR, name), { recursive: true, force: true });
}

/** `aureus analyze --format json`, parsed. */
export async function analyze(repo, policy, extra = []) {
  const { stdout } = await run(
    process.execPath,
    [AUREUS, 'analyze', '--repo', repo, '--format', 'json', '--policy', policy, ...extra],
    { maxBuffer: 512 * 1024 * 1024 },
  );
  return JSON.parse(stdout);
}

/** Components on one side only, and files in a component on one side only. */
export function difference(ours, theirs) {
  const key = (component) => [...component].sort().join('\n');
  const ourKeys = new Set(ours.map(key));
  const theirKeys = new Set(theirs.map(key));
  const ourFiles = new Set(ours.flat());
  const theirFiles = new Set(theirs.flat());
  return {
    componentsOnlyInAureus: ours.filter((component) => !theirKeys.has(key(component))),
    componentsOnlyInTool: theirs.filter((component) => !ourKeys.has(key(component))),
    filesOnlyInAureus: [...ourFiles].filter((file) => !theirFiles.has(file)).sort(),
    filesOnlyInTool: [...theirFiles].filter((file) => !ourFiles.has(file)).sort(),
  };
}

function isEmpty(diff) {
  return Object.values(diff).every((list) => list.length === 0);
}

async function checkCodebase(codebase, parserArgs, comparedOnly, refresh) {
  const name = `${codebase.name}@${codebase.version}`;
  const repo = prepareRepository(codebase);
  const policies = writePolicies(codebase);
  const files = sourceFiles(repo, codebase.sources).length;
  clearCache();
  // The tools' runs and AUREUS's are independent processes: run them side by side (2+ cores).
  const aureusRuns = (async () => {
    const all = await analyze(repo, policies.all, parserArgs);
    const runtime = await analyze(repo, policies.runtime, parserArgs);
    return { all, runtime };
  })();
  // The tools' answers are committed (kept-answers.mjs); AUREUS always runs anew.
  const madgeAllOnly = () =>
    keptAnswer(
      'madge',
      codebase,
      repo,
      () => madgeCycles(repo, codebase.sources, { withoutTypeImports: false }),
      'all-only',
      refresh,
    );
  const madgeBoth = () =>
    keptAnswer('madge', codebase, repo, () => madgeCycles(repo, codebase.sources), '', refresh);
  // --refresh rewrites every committed answer: both of madge's, whichever this run shows.
  const madgeRuns = refresh
    ? (async () => {
        const both = await madgeBoth();
        const allOnly = await madgeAllOnly();
        return comparedOnly ? allOnly : both;
      })()
    : comparedOnly
      ? madgeAllOnly()
      : madgeBoth();
  const [aureus, cruiserRun, madgeRun] = await Promise.all([
    aureusRuns,
    keptAnswer(
      'dependency-cruiser',
      codebase,
      repo,
      () => dependencyCruiserCycles(repo, codebase.sources),
      '',
      refresh,
    ),
    madgeRuns,
  ]);
  const cruiser = cruiserRun.answer;
  const madge = madgeRun.answer;
  // One word when both answers came the same way, else each tool's.
  const answerSources =
    cruiserRun.source === madgeRun.source
      ? cruiserRun.source
      : `dependency-cruiser ${cruiserRun.source}, madge ${madgeRun.source}`;
  const problems = [];
  const skipped = aureus.all.skipped.map((file) => `${file.path} (${file.reason})`);
  for (const setting of ['all', 'runtime']) {
    const result = aureus[setting];
    if (result.stats.sourceFiles !== files)
      problems.push(
        `${setting}: AUREUS analysed ${result.stats.sourceFiles} files, tools ${files}`,
      );
    if (result.countsTypeOnlyImports !== (setting === 'all'))
      problems.push(`${setting}: the policy's count_type_only_imports was not applied`);
    const tools = [['dependency-cruiser', cruiser]];
    if (setting === 'all') tools.push(['madge', madge]);
    for (const [tool, answer] of tools) {
      const diff = difference(result.cycles, answer.sccs[setting]);
      if (!isEmpty(diff)) problems.push(`${setting} vs ${tool}: ${describe(diff, skipped)}`);
    }
  }
  const count = (components) =>
    `${components.length} (${components.reduce((sum, c) => sum + c.length, 0)} files)`;
  return {
    row: [
      name,
      files,
      skipped.length === 0 ? '0' : `${skipped.length}: ${skipped.join(', ')}`,
      count(aureus.all.cycles),
      count(aureus.runtime.cycles),
      count(cruiser.sccs.all),
      count(cruiser.sccs.runtime),
      count(madge.sccs.all),
      madge.sccs.runtime === null ? 'not run (--compared-only)' : count(madge.sccs.runtime),
      problems.length === 0 ? 'yes' : 'NO',
      answerSources,
    ],
    problems: problems.map((problem) => `${name} ${problem}`),
  };
}

function describe(diff, skipped) {
  const list = (components) =>
    components.map((c) => `[${c.length}: ${c.slice(0, 8).join(', ')}${c.length > 8 ? ', …' : ''}]`);
  return [
    `components only in AUREUS ${diff.componentsOnlyInAureus.length} ${list(diff.componentsOnlyInAureus).join(' ')}`,
    `components only in the tool ${diff.componentsOnlyInTool.length} ${list(diff.componentsOnlyInTool).join(' ')}`,
    `files only in AUREUS's components: ${capped(diff.filesOnlyInAureus)}`,
    `files only in the tool's components: ${capped(diff.filesOnlyInTool)}`,
    `files AUREUS did not read: ${skipped.join(', ') || 'none'}`,
  ].join('\n    ');
}

/** Enough names to start debugging without burying the rest of the report. */
function capped(files, most = 40) {
  if (files.length === 0) return 'none';
  const more = files.length > most ? `, … ${files.length - most} more` : '';
  return `${files.length}: ${files.slice(0, most).join(', ')}${more}`;
}

/** AUREUS's Python file edges against CPython's (python-edges.mjs); prints a row, returns problems. */
async function checkPython() {
  const name = `${PYTHON_CODEBASE.name}@${PYTHON_CODEBASE.version} ${PYTHON_CODEBASE.folder}/`;
  const repo = pythonCodebaseRepo();
  const { analyzeRepository } = await import('../../dist/scan/analyze-repository.js');
  const { defaultPolicy } = await import('../../dist/policy/default-policy.js');
  const analysis = await analyzeRepository(repo, defaultPolicy());
  const ours = analysis.graph.edges.map(({ from, to }) => `${from}\t${to}`);
  const theirs = referenceEdges(repo);
  const diff = edgeDifference(ours, theirs);
  const equal = diff.onlyInAureus.length === 0 && diff.onlyInReference.length === 0;
  process.stdout.write(
    `\n| Python code base | files | AUREUS edges | CPython edges | equal? |\n|---|---|---|---|---|\n| ${name} | ${analysis.stats.byLanguage.python ?? 0} | ${ours.length} | ${theirs.length} | ${equal ? 'yes' : 'NO'} |\n`,
  );
  if (equal) return [];
  const shown = (edges) => capped(edges.map((edge) => edge.replace('\t', ' -> ')));
  return [
    `${name} Python edges only in AUREUS: ${shown(diff.onlyInAureus)}; only in CPython's: ${shown(diff.onlyInReference)}`,
  ];
}

function parserArguments(argv) {
  const at = argv.indexOf('--parser');
  return at === -1 ? [] : ['--parser', argv[at + 1] ?? 'auto'];
}

async function main() {
  const start = process.hrtime.bigint();
  fetchCodebases();
  const parserArgs = parserArguments(process.argv.slice(2));
  const header = [
    'code base',
    'files',
    'AUREUS did not read',
    'AUREUS all',
    'AUREUS runtime',
    'dependency-cruiser all',
    'dependency-cruiser runtime',
    'madge all',
    'madge without import type (not compared)',
    'equal?',
    "tools' answers",
  ];
  const rows = [];
  const problems = [];
  for (const codebase of CODEBASES) {
    const result = await checkCodebase(
      codebase,
      parserArgs,
      process.argv.includes('--compared-only'),
      process.argv.includes('--refresh'),
    );
    rows.push(result.row);
    problems.push(...result.problems);
  }
  process.stdout.write(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|\n`);
  for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
  process.stdout.write('\nComponents: count (files in them).\n');
  if (process.argv.includes('--typescript-only')) {
    process.stdout.write(
      '\nPython, Java and Go: compared by the jest tests of npm test (--typescript-only).\n',
    );
    return finish(start, problems, 'dependency-cruiser both ways and madge on every import');
  }
  problems.push(...(await checkPython()));
  const java = checkJavaReference();
  problems.push(...java.problems.map((problem) => `Java (jdk.httpserver) ${problem}`));
  process.stdout.write(
    `\nJava, jdk.httpserver (${java.files} files): AUREUS ${java.aureus} file edges, jdeps ${java.jdeps}; differences explained: ${java.explained.inferred} inferred, ${java.explained.inlined} inlined; ${java.problems.length === 0 ? 'equal' : 'NOT equal'}.\n`,
  );
  const go = await compareGoStandardLibrary({ analyze, git });
  process.stdout.write(`\n${go.summary}\n`);
  problems.push(...go.problems);
  finish(
    start,
    problems,
    "dependency-cruiser both ways and madge on every import, CPython on Python's import graph, jdeps on Java's and go list on Go's",
  );
}

function finish(start, problems, equals) {
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (problems.length > 0) {
    process.stdout.write(`\nDIFFERENCES (${problems.length}):\n${problems.join('\n')}\n`);
    process.stdout.write(`\nExactness: FAILED (${seconds.toFixed(1)} s).\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`\nExactness: AUREUS equals ${equals} (${seconds.toFixed(1)} s).\n`);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
