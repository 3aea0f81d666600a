// Monorepo benchmark: the pre-commit hook and warm `aureus check` on a repository of about 3,400
// TypeScript files and 600,000 lines, as ratios to `node -e 0`, the floor every Node.js tool pays
// to start. The target: every AUREUS row within 3× of that floor, what users expect of a hook.
// Run by `npm run bench`, which builds first.
//
// The repository: rxjs@7.8.2's `src/`, zod@4.6.7's `src/` and @theia/core@1.75.0's `src/`, the
// reference code bases of scripts/reference/ (fetched from the npm registry when missing; offline
// once fetched), each copied into three packages (`packages/<name>-<n>/`) with a comment naming
// the copy appended to every file, so that no two files share a blob (as in a real monorepo, where
// a cache keyed by content finds nothing shared between packages). One commit, one policy.
//
// Rows, each a whole process from spawn to exit, the median of 7 runs by wall time, with its CPU
// time (user + system; on a loaded machine the steadier figure) (process-timing.mjs); every
// AUREUS row follows one untimed run of the same command, which fills the caches:
//   node -e 0                         the floor;
//   hook, 10 files staged             `aureus hook pre-commit` with a 7-line function appended to
//                                     10 files spread over the tree, staged (a re-run: the head's
//                                     side is kept from the untimed run);
//   hook, first run on a new staging  the same with another function appended to the 10 files
//                                     and staged before each run (untimed), so that every run
//                                     meets a head it has not seen: what a commit's hook pays;
//   check, nothing changed            `aureus check` (the working tree against HEAD), clean tree;
//   check, 10 files changed           the same with the 10 files edited in the working tree;
//   check --all, nothing changed      the whole repository critiqued again, warm.
// Each run is checked, else the benchmark fails: AUREUS exits 0 or 1 and prints a verdict.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUREUS, fetchCodebases } from '../scripts/reference/check-exactness.mjs';
import { CODEBASES, repoDir } from '../scripts/reference/codebases.mjs';
import {
  loadAverage,
  machineLine,
  ms,
  processTimer,
  runTimeLine,
  TIMED_ENV,
} from './process-timing.mjs';
import { countLines, sources } from './reference-repository.mjs';

const RUNS = 7;
const TARGET_RATIO = 3;
const CHANGED_FILES = 10;
const COPIES = 3;
const PACKAGES = ['rxjs', 'zod', '@theia/core'];

const GIT = ['-c', 'user.name=aureus-bench', '-c', 'user.email=bench@localhost'];
const GIT_ENV = { ...TIMED_ENV, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
for (const name of ['GIT_DIR', 'GIT_INDEX_FILE', 'GIT_WORK_TREE', 'HUSKY', 'AUREUS_OVERRIDE'])
  delete GIT_ENV[name];

const work = mkdtempSync(join(tmpdir(), 'aureus-bench-monorepo-'));
const { measure } = processTimer(work);
const AUREUS_ENV = { ...GIT_ENV, AUREUS_CACHE_DIR: join(work, 'caches') };

function git(repo, args) {
  return execFileSync('git', [...GIT, ...args], { cwd: repo, env: GIT_ENV, encoding: 'utf8' });
}

function buildMonorepo(repo) {
  for (const name of PACKAGES) {
    const codebase = CODEBASES.find((candidate) => candidate.name === name);
    for (let copy = 1; copy <= COPIES; copy++) {
      const to = join(repo, 'packages', `${name.replace(/^@.*\//, '')}-${copy}`, 'src');
      cpSync(join(repoDir(codebase), 'src'), to, {
        recursive: true,
        filter: (source) => !/[\\/](tests?|__tests__)$/.test(source),
      });
    }
  }
  for (const file of sources(repo)) {
    const copy = /^packages\/[^/]+-(\d+)\//.exec(file)?.[1];
    writeFileSync(join(repo, file), `${readFileSync(join(repo, file), 'utf8')}\n// copy ${copy}\n`);
  }
  mkdirSync(join(repo, '.aureus'));
  writeFileSync(
    join(repo, '.aureus', 'policy.yaml'),
    'version: 1\nbudgets:\n  change: { warn: 400, block: 500 }\npaths:\n  ignore: ["**/*.d.ts", "**/*.js"]\n',
  );
  writeFileSync(join(repo, '.gitignore'), '.aureus/local/\n');
  git(repo, ['init', '-q', '--initial-branch=main']);
  git(repo, ['add', '-A']);
  git(repo, ['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', 'base']);
  return repo;
}

/** Appends a 7-line function to 10 files spread evenly over the sorted list. */
function editFiles(repo, files, tag = '') {
  const step = Math.floor(files.length / CHANGED_FILES);
  const chosen = Array.from({ length: CHANGED_FILES }, (_, i) => files[i * step]);
  chosen.forEach((file, i) => {
    const text = readFileSync(join(repo, file), 'utf8');
    const added = `\nexport function benchAdded${i}${tag}(a: number, b: number): number {\n  if (a > b) {\n    return a - b;\n  }\n  return a + b;\n}\n`;
    writeFileSync(join(repo, file), `${text}${added}`);
  });
  return chosen;
}

async function median(once) {
  await once();
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once());
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];
}

async function aureus(repo, args) {
  const run = await measure(process.execPath, [AUREUS, ...args], {
    cwd: repo,
    env: AUREUS_ENV,
    ok: [0, 1],
  });
  const verdict = /^AUREUS: (PASS|WARN|BLOCK) — /m.exec(run.stdout)?.[1];
  if (verdict === undefined) {
    throw new Error(`aureus ${args.join(' ')} printed no verdict: ${run.stdout.slice(0, 500)}`);
  }
  return { ...run, verdict };
}

async function main() {
  const start = process.hrtime.bigint();
  fetchCodebases();
  const repo = buildMonorepo(join(work, 'repo'));
  const files = sources(repo);
  const lines = countLines(repo, files);
  const before = loadAverage();

  const floor = await median(() => measure(process.execPath, ['-e', '0']));
  const all = await median(() => aureus(repo, ['check', '--all']));
  const clean = await median(() => aureus(repo, ['check']));
  const changed = editFiles(repo, files);
  const edited = await median(() => aureus(repo, ['check']));
  git(repo, ['add', '--', ...changed]);
  const hook = await median(() => aureus(repo, ['hook', 'pre-commit']));
  let staging = 0;
  const firstHook = await median(() => {
    git(repo, ['add', '--', ...editFiles(repo, files, `s${staging++}`)]);
    return aureus(repo, ['hook', 'pre-commit']);
  });

  const rows = [
    ['`node -e 0` (start-up floor)', floor, ''],
    [`AUREUS \`hook pre-commit\`, ${CHANGED_FILES} files staged`, hook, hook.verdict],
    [
      `AUREUS \`hook pre-commit\`, ${CHANGED_FILES} files staged, first run on that staging`,
      firstHook,
      firstHook.verdict,
    ],
    ['AUREUS `check`, nothing changed', clean, clean.verdict],
    [`AUREUS \`check\`, ${CHANGED_FILES} files changed`, edited, edited.verdict],
    ['AUREUS `check --all`, nothing changed', all, all.verdict],
  ];
  const ratio = (run) => run.ms / floor.ms;
  // CPU time (user + system, the median run's): what other work on the machine stretches least.
  const cpu = (run) => (run.cpuMs === null ? 'n/a' : ms(run.cpuMs));
  const cpuRatio = (run) =>
    run.cpuMs === null || floor.cpuMs === null ? 'n/a' : (run.cpuMs / floor.cpuMs).toFixed(1);
  const within = rows.slice(1, 5).every(([, run]) => ratio(run) <= TARGET_RATIO);
  process.stdout.write(
    [
      '## Monorepo: the hook and warm checks against `node -e 0`',
      '',
      `${machineLine()}. Load average before: ${before}.`,
      `Repository: ${PACKAGES.join(', ')} \`src/\`, ${COPIES} copies each: ${files.length} TypeScript files, ${lines.toLocaleString('en')} lines. Change: a 7-line function appended to ${CHANGED_FILES} of them. Each row: median of ${RUNS} whole-process runs after one untimed run.`,
      '',
      '| process | wall ms (median) | × node -e 0 | CPU ms | CPU × node -e 0 | peak MiB | verdict |',
      '|---|---:|---:|---:|---:|---:|---|',
      ...rows.map(
        ([label, run, note]) =>
          `| ${label} | ${ms(run.ms)} | ${ratio(run).toFixed(1)} | ${cpu(run)} | ${cpuRatio(run)} | ${run.peakKiB === null ? 'n/a' : (run.peakKiB / 1024).toFixed(0)} | ${note} |`,
      ),
      '',
      `- hook and warm \`check\` within ${TARGET_RATIO}× of \`node -e 0\`: ${within ? 'met' : 'NOT met'}.`,
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
  // AUREUS_BENCH_KEEP=1 leaves the repository in place, to profile AUREUS on it.
  if (process.env.AUREUS_BENCH_KEEP === '1') console.log(`Kept ${join(work, 'repo')}.`);
  else rmSync(work, { recursive: true, force: true });
}
