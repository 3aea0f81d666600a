import { ExitCode } from '../../model/errors.js';
import type { Report } from '../../model/report.js';
import { rangeCommits } from '../../workspace/commit-links.js';
import { type PushCheck, parsePushLines, pushedChanges } from '../../workspace/pushed-changes.js';
import type { Override } from '../../workspace/record-check.js';
import type { CommandContext } from '../commands/command-context.js';
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
 * through, recorded with those overrides, when each of them passes. A commit that blocks or
 * cannot be decided keeps the block; so does a push that blocks only as a whole, since no one
 * overrode that. Merge commits are skipped: their branches' commits are judged themselves.
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
  for (const { commit, merge, override } of commits.toReversed()) {
    if (override !== null || merge) continue;
    const alone = await judge(context, { kind: 'commit', ref: commit });
    if (alone.report.verdict !== 'pass' && alone.report.verdict !== 'warn')
      return {
        override: null,
        lines: [
          `Overrides recorded for this push's commits:`,
          ...said,
          `but ${commit.slice(0, 12)}, which has none, is ${alone.report.verdict === 'block' ? 'over budget on its own' : 'undecided on its own'}: the block stands.`,
        ],
      };
  }
  return {
    override: {
      by: [...new Set(overridden.map((each) => each.override?.by ?? '?'))].join(', '),
      reason: overridden
        .map((each) => `${each.commit.slice(0, 12)}: ${each.override?.reason ?? ''}`)
        .join('; '),
    },
    lines: [
      'Let through by the overrides of its commits (every other commit passes on its own); recorded:',
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
