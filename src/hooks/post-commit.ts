import type { CommandContext } from '../cli/commands/command-context.js';
import { recordLocally } from '../cli/commands/record-locally.js';
import { ExitCode } from '../model/errors.js';
import { linkHeadCommit } from './commit-links.js';
import { type HookTrigger, hooksSwitchedOff } from './hook-verdict.js';

/**
 * `aureus hook post-commit`: links the commit just made to the pre-commit check of exactly its
 * content in the local ledger, so the ledger says which commit each check became and pre-push
 * can honour an override given at commit time. Silent: git ignores this hook's exit code, and a
 * line after every commit would be noise. It loads no analysis; two or three git calls.
 */
export async function postCommit(context: CommandContext, trigger: HookTrigger): Promise<number> {
  if (hooksSwitchedOff(trigger)) return ExitCode.pass;
  await recordLocally(context.io, async () => {
    await linkHeadCommit(context.root);
  });
  return ExitCode.pass;
}
