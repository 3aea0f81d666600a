// Builder overhead benchmark: what the harness of `aureus implement` costs per action, gate by
// gate, beside the action itself, on the ~50,000-line repository of bench/hook.mjs. Run by
// `npm run bench`, which builds first. Target (the issue): at most 50 ms per gate check.
//
// A scripted run, in process, through the compiled modules the loop itself calls (dist/agent):
// a run is created (its linked worktree and branch), then ACTIONS actions alternate a file_read
// of a source file and a file_write that appends a 7-line function to another, each taken as the
// loop takes it: the tool's preview, then the gates in their order, then the action.
//   phase    the phase gate;
//   cost     pricing the action's file effects as aureus check prices them, then the cost gate;
//   budget   the budget gate (the run's points and the plan's allocation);
//   tier     the tier gate;
//   safety   the patch's size, the checkpoint (a git tree and commit of the run's tree, through
//            the run's own index file) and the critic on the files as the action leaves them;
//            the checkpoint and the critic are also shown alone;
//   action   the tool's apply: the file read or written.
// Medians over the actions of each kind. The critic analyses the start commit once per run, on
// the first write: that first write is shown on a row of its own and left out of the medians.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchCodebases } from '../scripts/reference/check-exactness.mjs';
import { loadAverage, machineLine, runTimeLine } from './process-timing.mjs';
import {
  buildReferenceRepository,
  countLines,
  REFERENCE_REPOSITORY,
  sources,
} from './reference-repository.mjs';

const ACTIONS = 40;
const TARGET_MS = 50;
const GATES = ['phase', 'cost', 'budget', 'tier', 'safety'];

const work = mkdtempSync(join(tmpdir(), 'aureus-bench-agent-'));
// AUREUS's caches in the benchmark's own folder, never the user's.
process.env.AUREUS_CACHE_DIR = join(work, 'caches');
const GIT = ['-c', 'user.name=aureus-bench', '-c', 'user.email=bench@localhost'];
const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
for (const name of ['GIT_DIR', 'GIT_INDEX_FILE', 'GIT_WORK_TREE']) delete GIT_ENV[name];

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { createRun } = await import(dist('agent/run-setup.js'));
const { basePolicy } = await import(dist('check/policy-at-commit.js'));
const { builderTools } = await import(dist('agent/tools/builder-tools.js'));
const { protectedPathTest } = await import(dist('agent/safety/path-authority.js'));
const { checkpointer } = await import(dist('agent/safety/checkpoints.js'));
const { effectPricer } = await import(dist('agent/effect-price.js'));
const { effectCritic } = await import(dist('agent/effect-critic.js'));
const gates = await import(dist('agent/action-gates.js'));

function git(repo, args) {
  return execFileSync('git', [...GIT, ...args], { cwd: repo, env: GIT_ENV, encoding: 'utf8' });
}

/** Runs `step` and adds its wall time in ms to `into[name]`; returns what it returned. */
async function timed(into, name, step) {
  const start = process.hrtime.bigint();
  const value = await step();
  into[name] = (into[name] ?? 0) + Number(process.hrtime.bigint() - start) / 1e6;
  return value;
}

/** One action as the loop takes it: preview, the five gates in order, then apply. */
async function takeAction(run, tool, input) {
  const times = {};
  const preview = await tool.preview(input);
  if ('ok' in preview) throw new Error(`${tool.spec.name} refused its input: ${preview.error}`);
  const effects = preview.kind === 'files' ? preview.effects : [];
  const context = {
    policy: run.policy,
    phase: 'act',
    spentPoints: run.spentPoints,
    planAllocation: 400,
    approval: 'none',
  };
  const refused = (refusal) => {
    if (refusal !== null) throw new Error(`${tool.spec.name} refused: ${refusal.error}`);
  };
  await timed(times, 'phase', () => refused(gates.phaseGate(tool, context)));
  const points = await timed(times, 'cost', async () => {
    const effectPoints = effects.length === 0 ? 0 : await run.price(effects);
    const total = gates.actionPoints(run.policy, tool.tier, effectPoints);
    refused(gates.costGate(total, context).refusal);
    return total;
  });
  await timed(times, 'budget', () => refused(gates.budgetGate(points, context)));
  await timed(times, 'tier', () => refused(gates.tierGate(tool.tier, context)));
  if (preview.kind !== 'read') {
    const taken = await timed(times, 'checkpoint', () => run.checkpoint('bench'));
    await timed(times, 'critic', async () => refused(await run.critic(effects, taken)));
  }
  times.safety = (times.checkpoint ?? 0) + (times.critic ?? 0);
  const result = await timed(times, 'action', () => tool.apply(input));
  if (!result.ok) throw new Error(`${tool.spec.name} failed: ${result.error}`);
  run.spentPoints += Math.max(0, points);
  return times;
}

/** Gate checks take well under a millisecond: one decimal. */
const ms1 = (value) => value.toFixed(1);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function main() {
  const start = process.hrtime.bigint();
  fetchCodebases();
  const repo = buildReferenceRepository(join(work, 'repo'), git);
  const files = sources(repo);
  const lines = countLines(repo, files);
  const made = await createRun(repo, 'bench the harness');
  const { policy } = await basePolicy(repo, made.startCommit, { cwd: repo });
  const run = {
    place: made.place,
    policy,
    spentPoints: 0,
    checkpoint: checkpointer(made.place),
    price: effectPricer(policy),
    critic: effectCritic({
      root: repo,
      tree: made.place.tree,
      startCommit: made.startCommit,
      policy,
    }),
  };
  const tools = builderTools(
    {
      tree: made.place.tree,
      isProtected: protectedPathTest(policy.permissions.protected_paths),
      maxFileBytes: 512 * 1024,
      maxResultBytes: 16 * 1024,
    },
    made.place,
    { allowed: [], timeoutMs: 60_000, alsoSecret: [] },
  );
  const tool = (name) => tools.find((each) => each.spec.name === name);
  const read = tool('file_read');
  const write = tool('file_write');
  const step = Math.floor(files.length / ACTIONS);
  const measured = { read: [], write: [] };
  let firstWrite = null;
  for (let i = 0; i < ACTIONS; i++) {
    const path = files[i * step];
    if (i % 2 === 0) {
      measured.read.push(await takeAction(run, read, { path }));
      continue;
    }
    const text = readFileSync(join(made.place.tree, path), 'utf8');
    const added = `\nexport function benchAdded${i}(a: number, b: number): number {\n  if (a > b) {\n    return a - b;\n  }\n  return a + b;\n}\n`;
    const times = await takeAction(run, write, { path, content: `${text}${added}` });
    if (firstWrite === null) firstWrite = times;
    else measured.write.push(times);
  }

  const columns = [...GATES, 'checkpoint', 'critic', 'action'];
  const medians = (kind) =>
    Object.fromEntries(
      columns.map((name) => [name, median(measured[kind].map((times) => times[name] ?? 0))]),
    );
  const rows = [
    [`file_read, median of ${measured.read.length}`, medians('read')],
    [`file_write, median of ${measured.write.length}`, medians('write')],
    ['first file_write of the run (the critic analyses the start commit)', firstWrite],
  ];
  const over = [];
  for (const [label, times] of rows.slice(0, 2))
    for (const gate of GATES) if (times[gate] > TARGET_MS) over.push(`${gate} (${label})`);
  const ratio = (times, name) =>
    times.action > 0 ? `${(times[name] / times.action).toFixed(1)}×` : 'n/a';
  process.stdout.write(
    [
      '## Builder overhead: each gate of `aureus implement` beside the action it lets through',
      '',
      `${machineLine()}. Load average before: ${loadAverage()}.`,
      `Repository: ${REFERENCE_REPOSITORY}: ${files.length} TypeScript files, ${lines.toLocaleString('en')} lines. ${ACTIONS} actions in one run, alternating a file_read and a file_write that appends a 7-line function.`,
      '',
      `| action | ${columns.join(' ms | ')} ms |`,
      `|---|${columns.map(() => '---:').join('|')}|`,
      ...rows.map(
        ([label, times]) =>
          `| ${label} | ${columns.map((name) => ms1(times[name] ?? 0)).join(' | ')} |`,
      ),
      '',
      'Each gate as a ratio to the action itself (medians):',
      ...rows
        .slice(0, 2)
        .map(
          ([label, times]) =>
            `- ${label}: ${GATES.map((gate) => `${gate} ${ratio(times, gate)}`).join(', ')}; harness total ${ms1(GATES.reduce((sum, gate) => sum + times[gate], 0))} ms for a ${ms1(times.action)} ms action.`,
        ),
      `- Target at most ${TARGET_MS} ms per gate check: ${over.length === 0 ? 'met' : `NOT met by ${over.join(', ')}`}.`,
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
  // AUREUS_BENCH_KEEP=1 leaves the repository in place, to profile the gates on it.
  if (process.env.AUREUS_BENCH_KEEP === '1') console.log(`Kept ${join(work, 'repo')}.`);
  else rmSync(work, { recursive: true, force: true });
}
