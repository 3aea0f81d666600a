import type { CommandContext } from '../cli/commands/command-context.js';
import { ExitCode } from '../model/errors.js';
import {
  hasStagedChanges,
  headCommit,
  isMergeInProgress,
  OVERRIDE_TRAILER,
} from './commit-in-progress.js';
import { clearDeferredBlock, markDeferredBlock } from './deferred-block.js';
import {
  ADVISORY,
  exitCodeOf,
  type HookTrigger,
  hooksSwitchedOff,
  judge,
  OVERRIDE_VARIABLE,
  overrideOf,
  preloadChecker,
  record,
  show,
  UNDECIDED,
} from './hook-verdict.js';

const LEDGER = '.aureus/local/ledger.jsonl';

/**
 * `aureus hook pre-commit`: the staged change, judged as `aureus check --staged` judges it. Exit 1
 * on block, with the reasons, the cost and the cheaper ways; the index and the working tree are
 * only read. `AUREUS_OVERRIDE="reason"` lets a blocked commit through and records who, why and
 * how much in the local ledger. With `defer`, a block is left to the commit-msg hook, which lets
 * the commit through when its message has an `Aureus-Override: reason` trailer.
 */
export async function preCommit(
  context: CommandContext,
  trigger: HookTrigger,
  defer: boolean,
): Promise<number> {
  const { root, io } = context;
  if (hooksSwitchedOff(trigger)) return ExitCode.pass;
  if (defer) await clearDeferredBlock(root);
  // Cheapest first: one git call, before any analysis is loaded.
  if (!(await hasStagedChanges(root))) return ExitCode.pass;
  preloadChecker();
  if (await isMergeInProgress(root)) {
    io.stderr(
      'aureus: concluding a merge: its commits were checked on their own; not priced here.\n',
    );
    return ExitCode.pass;
  }
  const judged = await judge(context, { kind: 'staged' });
  const { report } = judged;
  const reason = trigger.env[OVERRIDE_VARIABLE];
  if (report.verdict !== 'block') {
    await record(context, judged, null);
    show(context, report, report.verdict === 'incomplete' ? [UNDECIDED] : []);
    return exitCodeOf(report);
  }
  if (reason !== undefined) {
    const override = await overrideOf(root, reason, OVERRIDE_VARIABLE);
    await record(context, judged, override);
    show(context, report, [
      `Let through by ${OVERRIDE_VARIABLE} (${override.by}); recorded in ${LEDGER}.`,
    ]);
    return ExitCode.pass;
  }
  await record(context, judged, null);
  if (defer) {
    await markDeferredBlock(root, await headCommit(root));
    show(context, report, [
      `The commit-msg hook will refuse this commit unless its message ends with the trailer`,
      `  ${OVERRIDE_TRAILER}: <why>   (e.g. git commit --trailer "${OVERRIDE_TRAILER}: hotfix for the outage")`,
      ADVISORY,
    ]);
    return ExitCode.pass;
  }
  show(context, report, [
    `To commit anyway: ${OVERRIDE_VARIABLE}="<why>" git commit …  (recorded with your name in ${LEDGER})`,
    `${ADVISORY} Full report: aureus check --staged`,
  ]);
  return ExitCode.rejected;
}
