import type { Override } from '../check/record-check.js';
import type { CommandContext } from '../cli/commands/command-context.js';
import { ExitCode } from '../model/errors.js';
import type { Report } from '../model/report.js';
import { rangeCommits } from './commit-links.js';
import {
  exitCodeOf,
  type HookTrigger,
  hooksSwitchedOff,
  judge,
  OVERRIDE_VARIABLE,
  overrideOf,
  record,
  show,
  UNDECIDED,
} from './hook-verdict.js';
import { type PushCheck, parsePushLines, pushedChanges } from './pushed-changes.js';

/**
 * `aureus hook pre-push <remote> <url>`: every pushed branch checked on the basis CI will use,
 * the range from its merge base with what the remote has (see pushedChanges). Exit 1 when any
 * range blocks, 2 when any could not be decided; `AUREUS_OVERRIDE="reason"` lets blocked ranges
 * through, recorded. Advisory like every hook: `git push --no-verify` skips it.
 */
export async function prePush(context: CommandContext, trigger: HookTrigger): Promise<number> {
  const { root, io, positionals } = context;
  if (hooksSwitchedOff(trigger)) return ExitCode.pass;
  const remote = positionals[0] ?? 'origin';
  const refs = parsePushLines(await trigger.readStdin());
  const reason = trigger.env[OVERRIDE_VARIABLE];
  let exitCode: number = ExitCode.pass;
  for (const push of await pushedChanges(root, remote, refs)) {
    const judged = await judge(context, push.request);
    const { report } = judged;
    io.stdout(`aureus: ${push.remoteRef}: ${push.basis}\n`);
    if (report.verdict === 'block' && reason !== undefined) {
      const override = await overrideOf(root, reason, OVERRIDE_VARIABLE);
      await record(context, judged, override);
      show(context, report, [`Let through by ${OVERRIDE_VARIABLE} (${override.by}); recorded.`]);
      continue;
    }
    const walked = report.verdict === 'block' ? await commitOverrides(context, push) : null;
    if (walked?.override != null) {
      await record(context, judged, walked.override);
      show(context, report, walked.lines);
      continue;
    }
    await record(context, judged, null);
    show(context, report, [...(walked?.lines ?? []), ...FOOTERS[report.verdict]]);
    exitCode = Math.max(exitCode, exitCodeOf(report));
  }
  return exitCode;
}

/** More commits than this in a blocked push are not judged one by one: the block stands. */
const MAX_WALKED_COMMITS = 50;

/**
 * A blocked push whose commits carry overrides (an `Aureus-Override:` trailer, or one recorded
 * when they were committed): every commit without one is judged on its own, and the push goes
 * through, recorded with those overrides, when each of them passes and together they stay
 * within the budget (an override covers its own commit, not what the others add up to). A
 * commit that blocks or cannot be decided keeps the block; so does a merge commit (its own
 * change, a conflict's resolution, is not judged apart from what it merges).
 */
async function commitOverrides(
  context: CommandContext,
  push: PushCheck,
): Promise<{ readonly override: Override | null; readonly lines: readonly string[] }> {
  const { request } = push;
  const [base, head] =
    request.kind === 'range'
      ? [request.base, request.head]
      : [null, request.kind === 'commit' ? request.ref : 'HEAD'];
  const commits = await rangeCommits(context.root, base, head, MAX_WALKED_COMMITS);
  if (commits === null)
    return {
      override: null,
      lines: [
        `The push holds more than ${MAX_WALKED_COMMITS} commits: their overrides are not weighed one by one.`,
      ],
    };
  const overridden = commits.filter((each) => each.override !== null);
  if (overridden.length === 0) return { override: null, lines: [] };
  const said = overridden.map(
    ({ commit, override }) =>
      `  ${commit.slice(0, 12)} overridden by ${override?.by ?? '?'} (${override?.from ?? '?'}): ${override?.reason ?? ''}`,
  );
  const stands = (why: string) => ({
    override: null,
    lines: [
      `Overrides recorded for this push's commits:`,
      ...said,
      `but ${why}: the block stands.`,
    ],
  });
  const merge = commits.find((each) => each.merge);
  if (merge !== undefined)
    return stands(`${merge.commit.slice(0, 12)} is a merge, whose own change is not judged apart`);
  let together = 0;
  let budget = Number.POSITIVE_INFINITY;
  for (const { commit, override } of commits.toReversed()) {
    if (override !== null) continue;
    const alone = await judge(context, { kind: 'commit', ref: commit });
    const { verdict, cost } = alone.report;
    if (verdict !== 'pass' && verdict !== 'warn')
      return stands(
        `${commit.slice(0, 12)}, which has none, is ${verdict === 'block' ? 'over budget on its own' : 'undecided on its own'}`,
      );
    together += cost.total;
    budget = Math.min(budget, alone.report.budget.block);
  }
  if (together > budget)
    return stands(
      `the commits without an override cost ${together} points together, over the budget of ${budget}`,
    );
  return {
    override: {
      by: [...new Set(overridden.map((each) => each.override?.by ?? '?'))].join(', '),
      reason: overridden
        .map((each) => `${each.commit.slice(0, 12)}: ${each.override?.reason ?? ''}`)
        .join('; '),
    },
    lines: [
      'Let through by the overrides of its commits (the others pass, alone and together); recorded:',
      ...said,
    ],
  };
}

const FOOTERS: Readonly<Record<Report['verdict'], readonly string[]>> = {
  pass: [],
  warn: [],
  block: [
    `To push anyway: ${OVERRIDE_VARIABLE}="<why>" git push …  (recorded with your name).`,
    'Hooks are advisory: git push --no-verify skips them; the CI check is the gate.',
  ],
  incomplete: [UNDECIDED],
};
