import { resolve } from 'node:path';
import type { CommandContext } from '../cli/commands/command-context.js';
import { AureusError, ExitCode } from '../model/errors.js';
import {
  headCommit,
  isMergeInProgress,
  OVERRIDE_TRAILER,
  overrideTrailer,
} from './commit-in-progress.js';
import { takeDeferredBlock } from './deferred-block.js';
import {
  ADVISORY,
  exitCodeOf,
  type HookTrigger,
  hooksSwitchedOff,
  judge,
  overrideOf,
  record,
  show,
} from './hook-verdict.js';

/**
 * `aureus hook commit-msg <file>`: decides a commit that `aureus hook pre-commit
 * --defer-to-commit-msg` found over budget, now that the message exists. With an
 * `Aureus-Override: reason` trailer the commit goes through and the override is recorded;
 * without, it is refused (exit 1). When pre-commit let the commit through (or did not run),
 * there is nothing to decide and it exits 0 at once.
 */
export async function commitMsg(context: CommandContext, trigger: HookTrigger): Promise<number> {
  const { root, io, positionals } = context;
  const [file] = positionals;
  if (file === undefined)
    throw new AureusError(
      'aureus hook commit-msg needs the commit message file.',
      'run it from the commit-msg hook as: aureus hook commit-msg "$1".',
    );
  if (hooksSwitchedOff(trigger)) return ExitCode.pass;
  const blockedOn = await takeDeferredBlock(root);
  if (blockedOn === null) return ExitCode.pass;
  // A note from a commit abandoned earlier, or a merge being concluded: not this commit's.
  if (blockedOn !== (await headCommit(root)) || (await isMergeInProgress(root)))
    return ExitCode.pass;
  // Checked again rather than trusted: a later line of the pre-commit hook (a formatter) may
  // have changed what is staged.
  const judged = await judge(context, { kind: 'staged' });
  const { report } = judged;
  if (report.verdict !== 'block') {
    await record(context, judged, null);
    return exitCodeOf(report);
  }
  const reason = await overrideTrailer(root, resolve(io.cwd, file));
  if (reason !== null) {
    const override = await overrideOf(root, reason, `the ${OVERRIDE_TRAILER} trailer`);
    await record(context, judged, override);
    io.stdout(
      `aureus: blocked commit let through by its ${OVERRIDE_TRAILER} trailer (${override.by}); recorded in .aureus/local/ledger.jsonl.\n`,
    );
    return ExitCode.pass;
  }
  await record(context, judged, null);
  // pre-commit printed the reasons and alternatives already: the headline and what to do.
  show(
    context,
    report,
    [
      `Refused: the message has no ${OVERRIDE_TRAILER}: <why> trailer. Your message is kept in .git/COMMIT_EDITMSG;`,
      `  git commit -e -F .git/COMMIT_EDITMSG --trailer "${OVERRIDE_TRAILER}: <why>" commits it with one.`,
      ADVISORY,
    ],
    true,
  );
  return ExitCode.rejected;
}
