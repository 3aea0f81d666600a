// Usage:
//   node scripts/reference/replay-history.mjs adopt CLONE DIR [--commits N] [--init] [--aureus BIN]
//   node scripts/reference/replay-history.mjs replay CLONE [--commits N] [--with DIR] [--aureus BIN] [--out FILE]
//
// Replays the last N commits (first parent from HEAD, 60 by default) of a clone through
// `aureus check --commit`, and counts what a gate would have blocked: commits blocked or
// incomplete, and blocking findings by rule and status (new, worsened). It answers "how often
// does the gate stand in the way of ordinary work on this repository?" on real history.
//
// adopt: what a team adopting AUREUS at the start of the window would commit. Checks out the
//   parent of the oldest replayed commit in CLONE (whose working tree must be clean), runs
//   `aureus init` (--init: the generated policy and, for a legacy project, its baseline) or
//   `aureus baseline` (the built-in policy's findings), copies `.aureus/policy.yaml` and
//   `.aureus/baseline.json` to DIR, removes them and checks out the original HEAD again.
// replay: each commit C is checked by the policy committed at its parent, as in CI. With
//   --with DIR, the files in DIR (policy.yaml, baseline.json; either may be absent) are replayed
//   as if committed under `.aureus/` at every parent and kept in every commit: a synthetic parent
//   P' (C's parent plus the files) and C' (C's tree plus the files, parent P') are written as git
//   objects only (no ref, no checkout), so `check --commit C'` sees exactly C's diff.
//
// BIN is the CLI to run (this repository's bin/aureus.js by default; build it first), so two
// builds can be compared on the same history. Per-commit answers go to FILE as JSON lines.
// Everything is written inside CLONE's git objects and `.aureus/local/` (its cache); nothing here.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const DEFAULT_AUREUS = fileURLToPath(new URL('../../bin/aureus.js', import.meta.url));
const FILES = ['policy.yaml', 'baseline.json'];
const IDENTITY = {
  GIT_AUTHOR_NAME: 'replay',
  GIT_AUTHOR_EMAIL: 'replay@example.invalid',
  GIT_COMMITTER_NAME: 'replay',
  GIT_COMMITTER_EMAIL: 'replay@example.invalid',
};

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    commits: { type: 'string', default: '60' },
    with: { type: 'string' },
    aureus: { type: 'string', default: DEFAULT_AUREUS },
    out: { type: 'string' },
    init: { type: 'boolean', default: false },
  },
});
const [command, cloneArg, dirArg] = positionals;
if ((command !== 'adopt' && command !== 'replay') || cloneArg === undefined) {
  console.error('usage: replay-history.mjs adopt CLONE DIR [--init] | replay CLONE [--with DIR]');
  process.exit(2);
}
const clone = resolve(cloneArg);
const count = Number(values.commits);
const aureus = resolve(values.aureus);

function git(args, env = {}) {
  return execFileSync('git', args, {
    cwd: clone,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  }).trim();
}

/** The last `count` first-parent commits, oldest first. */
function replayedCommits() {
  return git(['rev-list', '--first-parent', `--max-count=${count}`, 'HEAD'])
    .split('\n')
    .reverse();
}

function runAureus(args) {
  return spawnSync(process.execPath, [aureus, ...args], {
    cwd: clone,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
}

function adopt(dir) {
  if (git(['status', '--porcelain', '--untracked-files=no']) !== '')
    throw new Error(`${clone} has changes; adopt checks out another commit.`);
  const [oldest] = replayedCommits();
  const start = git(['rev-parse', `${oldest}^`]);
  const original = git(['rev-parse', 'HEAD']);
  const branch = git(['rev-parse', '--abbrev-ref', 'HEAD']);
  git(['checkout', '--quiet', '--detach', start]);
  try {
    const run = runAureus(values.init ? ['init', '--yes', '--without-hooks'] : ['baseline']);
    if (run.status !== 0) throw new Error(`aureus exited ${run.status}: ${run.stderr}`);
    mkdirSync(dir, { recursive: true });
    for (const name of FILES) {
      const path = join(clone, '.aureus', name);
      if (!existsSync(path)) continue;
      copyFileSync(path, join(dir, name));
      rmSync(path);
    }
    console.log(`adopted at ${start.slice(0, 10)}: ${run.stdout.trim()}`);
  } finally {
    git(['checkout', '--quiet', branch === 'HEAD' ? original : branch]);
  }
}

/** `tree` with the files of `dir` added under `.aureus/`, as a new tree id. */
function treeWith(tree, blobs) {
  const index = join(git(['rev-parse', '--absolute-git-dir']), `replay-index-${process.pid}`);
  const env = { GIT_INDEX_FILE: index };
  try {
    git(['read-tree', tree], env);
    for (const [name, blob] of blobs)
      git(['update-index', '--add', '--cacheinfo', `100644,${blob},.aureus/${name}`], env);
    return git(['write-tree'], env);
  } finally {
    rmSync(index, { force: true });
  }
}

/**
 * The window replayed on top of a start that carries the files: S' (the parent of the oldest
 * commit, plus the files), then each C' (C's tree plus the files) on the previous one, so each
 * `check --commit C'` sees exactly C's diff, and the baseline was last written at S', before
 * every rename of the window (as for a team that adopted AUREUS at S). Dates are the originals.
 */
function chainWithFiles(commits, blobs) {
  const dated = (sha) => {
    const date = git(['log', '-1', '--format=%cI', sha]);
    return { ...IDENTITY, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  };
  const [oldest] = commits;
  const start = git(['rev-parse', `${oldest}^`]);
  let parent = git(
    ['commit-tree', treeWith(`${start}^{tree}`, blobs), '-p', start, '-m', 'adopt'],
    dated(start),
  );
  const replayed = new Map();
  for (const commit of commits) {
    parent = git(
      ['commit-tree', treeWith(`${commit}^{tree}`, blobs), '-p', parent, '-m', commit],
      dated(commit),
    );
    replayed.set(commit, parent);
  }
  return replayed;
}

function replay() {
  const dir = values.with === undefined ? undefined : resolve(values.with);
  const blobs =
    dir === undefined
      ? []
      : FILES.filter((name) => existsSync(join(dir, name))).map((name) => [
          name,
          git(['hash-object', '-w', join(dir, name)]),
        ]);
  const rows = [];
  const commits = replayedCommits();
  const replayed = blobs.length === 0 ? new Map() : chainWithFiles(commits, blobs);
  for (const commit of commits) {
    const checked = replayed.get(commit) ?? commit;
    const run = runAureus(['check', '--commit', checked, '--format', 'json']);
    let report;
    try {
      report = JSON.parse(run.stdout);
    } catch {
      throw new Error(`aureus check --commit ${commit} exited ${run.status}: ${run.stderr}`);
    }
    const brief = ({ ruleId, status, symbol, measured, growth }) => ({
      ruleId,
      status,
      symbol,
      measured,
      ...(growth === undefined ? {} : { growth }),
    });
    const blocking = report.findings.filter((finding) => finding.blocking).map(brief);
    const worsened = report.findings.filter((finding) => finding.status === 'worsened').map(brief);
    const tolerated = report.findings.filter((f) => f.growth?.tolerated === true).length;
    const overBudget = report.cost.total > report.budget.block;
    const row = {
      commit: commit.slice(0, 10),
      verdict: report.verdict,
      overBudget,
      tolerated,
      blocking,
      worsened,
    };
    rows.push(row);
    if (values.out !== undefined)
      writeFileSync(values.out, `${JSON.stringify(row)}\n`, { flag: 'a' });
    console.error(
      `${row.commit} ${row.verdict}${overBudget ? ' (over budget)' : ''} ${blocking.map((f) => `${f.status} ${f.ruleId}`).join(', ')}`,
    );
  }
  summarize(rows);
}

function summarize(rows) {
  const by = new Map();
  for (const row of rows)
    for (const finding of row.blocking) {
      const key = `${finding.ruleId} (${finding.status})`;
      by.set(key, (by.get(key) ?? 0) + 1);
    }
  const verdicts = (verdict) => rows.filter((row) => row.verdict === verdict).length;
  console.log(`commits replayed      ${rows.length}`);
  console.log(`blocked               ${verdicts('block')}`);
  console.log(
    `  over budget         ${rows.filter((row) => row.verdict === 'block' && row.overBudget).length}`,
  );
  console.log(`incomplete            ${verdicts('incomplete')}`);
  console.log(`warn / pass           ${verdicts('warn')} / ${verdicts('pass')}`);
  console.log(
    `growth tolerated      ${rows.reduce((sum, row) => sum + row.tolerated, 0)} findings`,
  );
  console.log(`blocking findings     ${rows.reduce((sum, row) => sum + row.blocking.length, 0)}`);
  for (const [key, n] of [...by].sort((a, b) => b[1] - a[1]))
    console.log(`  ${key.padEnd(34)} ${n}`);
}

if (command === 'adopt') {
  if (dirArg === undefined) throw new Error('adopt needs a DIR to write the files to.');
  adopt(resolve(dirArg));
} else {
  replay();
}
