import type { HookTrigger } from '../../hooks/hook-verdict.js';
import type { CommandContext } from './command-context.js';

/**
 * `aureus hook pre-commit|commit-msg|post-commit|pre-push`: what the git hook scripts run. The hooks live in
 * `../hooks/`, one file each, loaded on use: a commit with nothing to check should not pay for
 * the pre-push code, nor any hook for the analysis before it knows there is something to check.
 */
function processTrigger(): HookTrigger {
  return { env: process.env, readStdin: () => readAll(process.stdin) };
}

export async function preCommitHookCommand(context: CommandContext): Promise<number> {
  const { preCommit } = await import('../../hooks/pre-commit.js');
  return preCommit(context, processTrigger(), context.options.deferToCommitMsg === true);
}

export async function commitMsgHookCommand(context: CommandContext): Promise<number> {
  const { commitMsg } = await import('../../hooks/commit-msg.js');
  return commitMsg(context, processTrigger());
}

export async function postCommitHookCommand(context: CommandContext): Promise<number> {
  const { postCommit } = await import('../../hooks/post-commit.js');
  return postCommit(context, processTrigger());
}

export async function prePushHookCommand(context: CommandContext): Promise<number> {
  const { prePush } = await import('../../hooks/pre-push.js');
  return prePush(context, processTrigger());
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
