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
// Each gate's CPU time (this process's threads and the git processes it waited for) is the
// measure: on this kind of shared machine a wall median of a 40 ms step swings with the load,
// while CPU time is what the gate itself costs. Means over the actions of each kind (the git
// children's CPU comes in 10 ms clock ticks, which a mean over the actions smooths and a median
// would not), wall medians beside them. The critic analyses the start commit once per run, on
// the first write: that first write is shown on a row of its own and left out of the means.
// AUREUS_BENCH_PROFILE=<file.cpuprofile> writes a CPU profile of the actions after that first
// write (the gates as they run action after action), for `node --cpu-prof`-like reading.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
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

/**
 * CPU time so far in ms: this process's (every thread's, from the kernel in microseconds) and
 * that of the child processes it has waited for (git), from /proc/self/stat in clock ticks.
 * Children count 0 where /proc is not there.
 */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000 + childrenCpuMs();
}

const CLOCK_TICKS_PER_SECOND = 100;

function childrenCpuMs() {
  let stat;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return 0;
  }
  // Fields after the command name (which may hold spaces) in parentheses: cutime and cstime
  // are the 16th and 17th fields, the 14th and 15th after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * Runs `step` and adds its wall time in ms to `into.wall[name]` and its CPU time to
 * `into.cpu[name]`; returns what it returned.
 */
async function timed(into, name, step) {
  const start = process.hrtime.bigint();
  const cpuStart = cpuMs();
  const value = await step();
  into.cpu[name] = (into.cpu[name] ?? 0) + cpuMs() - cpuStart;
  into.wall[name] = (into.wall[name] ?? 0) + Number(process.hrtime.bigint() - start) / 1e6;
  return value;
}

/** One action as the loop takes it: preview, the five gates in order, then apply. */
async function takeAction(run, tool, input) {
  const times = { wall: {}, cpu: {} };
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
  for (const kind of ['wall', 'cpu'])
    times[kind].safety = (times[kind].checkpoint ?? 0) + (times[kind].critic ?? 0);
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

const mean = (values) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/** The inspector's CPU profiler, started after the first write when AUREUS_BENCH_PROFILE names a file. */
async function startProfile() {
  const file = process.env.AUREUS_BENCH_PROFILE;
  if (file === undefined || file === '') return async () => {};
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    console.log(`CPU profile of the actions after the first write: ${file}.`);
  };
}

async function main() {
  const start = process.hrtime.bigint();
  const loadAtStart = loadAverage();
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
  let stopProfile = async () => {};
  for (let i = 0; i < ACTIONS; i++) {
    const path = files[i * step];
    if (i % 2 === 0) {
      measured.read.push(await takeAction(run, read, { path }));
      continue;
    }
    const text = readFileSync(join(made.place.tree, path), 'utf8');
    const added = `\nexport function benchAdded${i}(a: number, b: number): number {\n  if (a > b) {\n    return a - b;\n  }\n  return a + b;\n}\n`;
    const times = await takeAction(run, write, { path, content: `${text}${added}` });
    if (firstWrite === null) {
      firstWrite = times;
      stopProfile = await startProfile();
    } else measured.write.push(times);
  }
  await stopProfile();

  const columns = [...GATES, 'checkpoint', 'critic', 'action'];
  const summary = (kind, measure, of) =>
    Object.fromEntries(
      columns.map((name) => [name, of(measured[kind].map((times) => times[measure][name] ?? 0))]),
    );
  const rows = (measure, of, word) => [
    [`file_read, ${word} of ${measured.read.length}`, summary('read', measure, of)],
    [`file_write, ${word} of ${measured.write.length}`, summary('write', measure, of)],
    ['first file_write of the run (the critic analyses the start commit)', firstWrite[measure]],
  ];
  const cpuRows = rows('cpu', mean, 'mean');
  const wallRows = rows('wall', median, 'median');
  const over = [];
  for (const [label, times] of cpuRows.slice(0, 2))
    for (const gate of GATES) if (times[gate] > TARGET_MS) over.push(`${gate} (${label})`);
  const ratio = (times, name) =>
    times.action > 0 ? `${(times[name] / times.action).toFixed(1)}×` : 'n/a';
  const table = (title, measured) => [
    title,
    '',
    `| action | ${columns.join(' ms | ')} ms |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
    ...measured.map(
      ([label, times]) =>
        `| ${label} | ${columns.map((name) => ms1(times[name] ?? 0)).join(' | ')} |`,
    ),
    '',
  ];
  const loadAfter = loadAverage();
  process.stdout.write(
    [
      '## Builder overhead: each gate of `aureus implement` beside the action it lets through',
      '',
      `${machineLine()}. Load average before the run: ${loadAtStart}; after the actions: ${loadAfter}.`,
      `Repository: ${REFERENCE_REPOSITORY}: ${files.length} TypeScript files, ${lines.toLocaleString('en')} lines. ${ACTIONS} actions in one run, alternating a file_read and a file_write that appends a 7-line function.`,
      '',
      ...table('CPU time per action (this process and the git processes it ran; means):', cpuRows),
      ...table('Wall time per action (medians; the load stretches them):', wallRows),
      "Each gate's CPU time as a ratio to the action's own (means):",
      ...cpuRows
        .slice(0, 2)
        .map(
          ([label, times]) =>
            `- ${label}: ${GATES.map((gate) => `${gate} ${ratio(times, gate)}`).join(', ')}; harness total ${ms1(GATES.reduce((sum, gate) => sum + times[gate], 0))} ms of CPU for a ${ms1(times.action)} ms action.`,
        ),
      `- Target at most ${TARGET_MS} ms of CPU per gate check: ${over.length === 0 ? 'met' : `NOT met by ${over.join(', ')}`}.`,
      '',
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
