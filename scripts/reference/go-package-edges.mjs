// Go's import graph against the go command's own: AUREUS's edges between packages (its file
// edges collapsed to folders) and `go list`'s, on a part of Go's standard library, which ships
// with the go command (Debian's golang-go), so nothing is fetched beyond that package. The rule
// that makes the two comparable is in check-exactness.mjs's header.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The packages compared: every package under these folders of the standard library. */
export const STD_SUBSET = ['encoding', 'go', 'text'];
/** The go command on the PATH (Debian's golang-go puts it in /usr/bin). */
const GO = 'go';
const INSTALL = 'apt-get install -y --no-install-recommends golang-go';
/** The go command offline and as installed: no module downloads, no other toolchain. */
const GO_ENV = {
  ...process.env,
  GOPROXY: 'off',
  GOTOOLCHAIN: 'local',
  GOFLAGS: '',
  GO111MODULE: '',
};

/**
 * Installs Debian's go command when none is on the PATH, as root with apt-get; anywhere else
 * fails with the command to run. Never skipped: a comparison that quietly did not run reads as
 * passed.
 */
export function ensureGo() {
  if (spawnSync(GO, ['version'], { env: GO_ENV, stdio: 'ignore' }).status === 0) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const aptGet = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!root || !aptGet)
    throw new Error(
      `the Go comparison needs the go command, and none is on the PATH. Install it with: sudo apt-get update && sudo ${INSTALL}`,
    );
  process.stderr.write(`The go command is missing: installing it (${INSTALL}).\n`);
  for (const command of ['apt-get update', INSTALL]) {
    const [program, ...args] = command.split(' ');
    const run = spawnSync(program, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    if (run.status !== 0)
      throw new Error(`"${command}" failed (exit ${run.status}); run it yourself, then again.`);
  }
}

function go(args, cwd) {
  return execFileSync(GO, args, { cwd, env: GO_ENV, encoding: 'utf8', maxBuffer: 64 << 20 });
}

/**
 * `go list` of the subset, run where the standard library is (module std): each package's
 * folder (relative to GOROOT/src), files built on this platform, files its build constraints
 * leave out here, and imports.
 */
export function goListPackages() {
  const src = join(go(['env', 'GOROOT']).trim(), 'src');
  const format =
    '{{.ImportPath}}\t{{join .GoFiles " "}}\t{{join .IgnoredGoFiles " "}}\t{{join .Imports " "}}\t{{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}\t{{join .TestImports " "}} {{join .XTestImports " "}}';
  const patterns = STD_SUBSET.map((folder) => `${folder}/...`);
  const packages = go(['list', '-f', format, ...patterns], src)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [importPath, files, ignored, imports, testFiles, testImports] = line.split('\t');
      const words = (text) => text.split(' ').filter((word) => word !== '');
      return {
        importPath,
        files: words(files),
        ignored: words(ignored).map((file) => `${importPath}/${file}`),
        imports: words(imports),
        testFiles: words(testFiles),
        testImports: words(testImports),
      };
    });
  return { src, packages };
}

/** Copies the subset into `dir` as the standard library lays it out, go.mod (`module std`) at the root. */
export function copyStdSubset(src, dir) {
  cpSync(join(src, 'go.mod'), join(dir, 'go.mod'));
  for (const folder of STD_SUBSET)
    cpSync(join(src, folder), join(dir, folder), { recursive: true });
}

/**
 * The policy that makes each package one policy module (one glob per folder, whose module is
 * the folder: policy-modules.ts), so `moduleEdges` are package edges, and leaves AUREUS the
 * files `go list` builds: no testdata, none of the files build constraints leave out here, and
 * the test files only `withTests`. Returns how many files that is.
 */
export function writeGoPolicy(packages, file, withTests) {
  const ignored = ['**/testdata/**', ...packages.flatMap(({ ignored }) => ignored)];
  const lines = [
    'version: 1',
    'paths:',
    '  core:',
    ...packages.map(({ importPath }) => `    - ${JSON.stringify(`${importPath}/*`)}`),
    '  ignore:',
    ...(withTests ? ignored : ['**/*_test.go', ...ignored]).map(
      (glob) => `    - ${JSON.stringify(glob)}`,
    ),
    '',
  ];
  writeFileSync(file, lines.join('\n'));
  const count = (list) => list.reduce((sum, names) => sum + names.length, 0);
  return count(
    packages.map(({ files, testFiles }) => (withTests ? [...files, ...testFiles] : files)),
  );
}

/**
 * `go list`'s edges between the subset's packages, as sorted `from -> to` lines: each package's
 * `Imports`, and `withTests` its test files' (`TestImports`, `XTestImports`, less the package
 * itself, which its external tests import).
 */
export function referenceEdges(packages, withTests) {
  const inSubset = new Set(packages.map(({ importPath }) => importPath));
  const edges = new Set();
  for (const { importPath, imports, testImports } of packages) {
    for (const target of withTests ? [...imports, ...testImports] : imports)
      if (inSubset.has(target) && target !== importPath) edges.add(`${importPath} -> ${target}`);
  }
  return [...edges].sort();
}

/** AUREUS's module edges (one module per package under writeGoPolicy's policy), the same way. */
export function aureusEdges(analysis) {
  return analysis.moduleEdges.map(({ from, to }) => `${from} -> ${to}`).sort();
}

/** Lines on one side only. */
export function edgeDifference(ours, theirs) {
  const theirSet = new Set(theirs);
  const ourSet = new Set(ours);
  return {
    onlyInAureus: ours.filter((edge) => !theirSet.has(edge)),
    onlyInGoList: theirs.filter((edge) => !ourSet.has(edge)),
  };
}

/**
 * The comparison check-exactness.mjs runs: `analyze(repo, policy)` is AUREUS's analysis as JSON,
 * `git(dir, args)` commits. Returns a summary line and the differences (none when equal).
 */
export async function compareGoStandardLibrary({ analyze, git }) {
  ensureGo();
  const { src, packages } = goListPackages();
  const work = mkdtempSync(join(tmpdir(), 'aureus-go-std-'));
  try {
    const repo = join(work, 'repo');
    mkdirSync(repo);
    copyStdSubset(src, repo);
    git(repo, ['init', '-q']);
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', 'standard library subset']);
    const policy = join(work, 'aureus-policy.yaml');
    const problems = [];
    const summaries = [];
    for (const withTests of [false, true]) {
      const files = writeGoPolicy(packages, policy, withTests);
      const analysis = await analyze(repo, policy);
      const reference = referenceEdges(packages, withTests);
      const ours = aureusEdges(analysis);
      const diff = edgeDifference(ours, reference);
      const side = withTests ? 'with test files' : 'without test files';
      if (analysis.stats.sourceFiles !== files)
        problems.push(
          `Go ${side}: AUREUS analysed ${analysis.stats.sourceFiles} files, go list ${files}`,
        );
      if (diff.onlyInAureus.length > 0)
        problems.push(`Go ${side}: edges only in AUREUS: ${diff.onlyInAureus.join(', ')}`);
      if (diff.onlyInGoList.length > 0)
        problems.push(`Go ${side}: edges only in go list: ${diff.onlyInGoList.join(', ')}`);
      summaries.push(
        `${side} ${files} files, ${reference.length} edges in go list, ${ours.length} in AUREUS`,
      );
    }
    const summary = `Go standard library (${STD_SUBSET.map((folder) => `${folder}/...`).join(' ')}): ${packages.length} packages; ${summaries.join('; ')}; equal? ${problems.length === 0 ? 'yes' : 'NO'}`;
    return { summary, problems };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
