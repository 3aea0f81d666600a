// The real Python code base AUREUS's Python import graph is compared on, and the reference that
// reads it (python-import-edges.py: CPython's ast and importlib, see its header).
//
// The code base: gyp, the Python package node-gyp ships (`gyp/`: `pylib/gyp`, its generators,
// the `packaging` library it vendors, its tests and scripts), fetched from the npm registry with
// `npm pack` (no install scripts) and committed as a git repository outside this one. Its
// pyproject.toml says `package-dir = {"" = "pylib"}`, so the search path the reference is given
// is `pylib`, then the project's folder: the roots AUREUS reads from that file.
//
// The comparison is exact: every edge [importing file, imported file] between the code base's
// `.py` files, as a set, with no rule applied and no tolerance. Python's ast sees every import
// statement wherever it stands (functions, `if TYPE_CHECKING:`), and so does AUREUS's graph,
// which keeps type-only and deferred imports as edges (flagged, not dropped).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceDir } from './codebases.mjs';
import { git } from './reference-git.mjs';

export const PYTHON_CODEBASE = {
  name: 'node-gyp',
  version: '12.4.0',
  folder: 'gyp',
  roots: ['pylib', '.'],
};

const REFERENCE = fileURLToPath(new URL('./python-import-edges.py', import.meta.url));
const INSTALL = 'apt-get install -y --no-install-recommends python3';

/**
 * Debian's python3 when it is missing, as root with apt-get; anywhere else an error with the
 * command to run. Never skipped: a comparison that quietly did not run would read as passed.
 */
export function ensurePython() {
  if (spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0)
    throw new Error(
      `the Python reference needs python3, and it is missing. Install it with: sudo apt-get update && sudo ${INSTALL}`,
    );
  for (const command of ['apt-get update', INSTALL]) {
    const [program, ...args] = command.split(' ');
    if (spawnSync(program, args, { stdio: 'inherit' }).status !== 0)
      throw new Error(`"${command}" failed; run it yourself, then the comparison.`);
  }
}

/** The code base as a committed git repository (fetched once, offline afterwards); its folder. */
export function pythonCodebaseRepo(codebase = PYTHON_CODEBASE) {
  const folder = join(referenceDir(), `${codebase.name}@${codebase.version}-python`);
  const repo = join(folder, 'repo');
  if (existsSync(join(repo, '.git', 'aureus-committed'))) return repo;
  rmSync(folder, { recursive: true, force: true });
  const staging = join(folder, 'staging');
  mkdirSync(staging, { recursive: true });
  const tarball = execFileSync(
    'npm',
    ['pack', `${codebase.name}@${codebase.version}`, '--silent', '--pack-destination', staging],
    { cwd: staging, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
    .trim()
    .split('\n')
    .at(-1);
  execFileSync('tar', ['-xzf', join(staging, tarball), '-C', staging]);
  cpSync(join(staging, 'package', codebase.folder), repo, { recursive: true });
  rmSync(staging, { recursive: true, force: true });
  git(repo, ['init', '-q']);
  git(repo, ['add', '-A']);
  git(repo, [
    'commit',
    '-q',
    '--no-verify',
    '-m',
    `${codebase.name}@${codebase.version} ${codebase.folder}`,
  ]);
  writeFileSync(join(repo, '.git', 'aureus-committed'), '');
  return repo;
}

/** The reference's edges, `from\tto` strings, sorted. */
export function referenceEdges(repo, roots = PYTHON_CODEBASE.roots) {
  ensurePython();
  const out = execFileSync('python3', [REFERENCE, repo, ...roots], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out).map(([from, to]) => `${from}\t${to}`);
}

/** Edges on one side only. */
export function edgeDifference(aureus, reference) {
  const ours = new Set(aureus);
  const theirs = new Set(reference);
  return {
    onlyInAureus: aureus.filter((edge) => !theirs.has(edge)).sort(),
    onlyInReference: reference.filter((edge) => !ours.has(edge)).sort(),
  };
}
