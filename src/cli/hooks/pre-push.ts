import { ExitCode } from '../../model/errors.js';
import type { Report } from '../../model/report.js';
import { parsePushLines, pushedChanges } from '../../workspace/pushed-changes.js';
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
    const report = await judge(context, push.request);
    io.stdout(`aureus: ${push.remoteRef}: ${push.basis}\n`);
    if (report.verdict === 'block' && reason !== undefined) {
      const override = await overrideOf(root, reason, OVERRIDE_VARIABLE);
      await record(context, report, override);
      show(context, report, [`Let through by ${OVERRIDE_VARIABLE} (${override.by}); recorded.`]);
      continue;
    }
    await record(context, report, null);
    show(context, report, FOOTERS[report.verdict]);
    exitCode = Math.max(exitCode, exitCodeOf(report));
  }
  return exitCode;
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
