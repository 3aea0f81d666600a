import { relative, sep } from 'node:path';
import { type HookInstall, installHooks, uninstallHooks } from '../../hooks/install-hooks.js';
import { AureusError, ExitCode } from '../../model/errors.js';
import type { CommandContext } from './command-context.js';

const OPTIONAL_HOOKS = ['pre-push', 'commit-msg'] as const;
type OptionalHook = (typeof OPTIONAL_HOOKS)[number];

/**
 * `aureus hooks install [pre-push] [commit-msg]`: the pre-commit hook (and the ones named), with
 * husky in a node project, plain scripts otherwise. Run from a sub-package of a monorepo, it
 * declares husky there and points the hooks at that package's `aureus`.
 */
export async function installHooksCommand(context: CommandContext): Promise<number> {
  const hooks = context.positionals.map(optionalHook);
  const result = await installHooks(startOf(context), { hooks });
  print(context, result, 'installed');
  return ExitCode.pass;
}

/** `aureus hooks uninstall`: AUREUS's lines out of the hook scripts, everything else kept. */
export async function uninstallHooksCommand(context: CommandContext): Promise<number> {
  print(context, await uninstallHooks(startOf(context)), 'removed');
  return ExitCode.pass;
}

function optionalHook(word: string): OptionalHook {
  const hook = OPTIONAL_HOOKS.find((name) => name === word);
  if (hook === undefined)
    throw new AureusError(
      `aureus hooks install does not know the hook "${word}".`,
      `name any of ${OPTIONAL_HOOKS.join(', ')} (pre-commit is always installed).`,
    );
  return hook;
}

/**
 * Where to look for the package: the working directory when it is inside the repository (a
 * sub-package of a monorepo), else the --repo folder.
 */
function startOf({ root, io }: CommandContext): string {
  const inside = relative(root, io.cwd);
  return inside === '' || (!inside.startsWith(`..${sep}`) && inside !== '..') ? io.cwd : root;
}

function print(context: CommandContext, result: HookInstall, verb: string): void {
  const how = result.mode === 'husky' ? 'husky scripts' : 'plain git hook scripts';
  const lines = [
    result.changed.length === 0
      ? `aureus: hooks already ${verb} (${how} in ${result.hooksDir}/); nothing changed.`
      : `aureus: hooks ${verb} (${how} in ${result.hooksDir}/):`,
    ...result.changed.map((file) => `  ${file}`),
    ...result.notes.map((note) => `Note: ${note}`),
  ];
  context.io.stdout(`${lines.join('\n')}\n`);
}
