import { relative, resolve } from 'node:path';
import { loadPolicy, readPolicyFile } from '../../memory/policy-file.js';
import { storePaths } from '../../memory/store-paths.js';
import { ExitCode } from '../../model/errors.js';
import { formatPolicyProblem, PolicyError } from '../../policy/policy-problem.js';
import { renderPolicy } from '../../policy/render-policy.js';
import type { CommandContext } from './command-context.js';

/** `aureus policy validate [FILE]`: every problem of a policy file, or confirmation it is valid. */
export async function validatePolicyCommand(context: CommandContext): Promise<number> {
  const { io, root, positionals, format } = context;
  const file = positionals[0];
  const path = file === undefined ? storePaths(root).policy : resolve(io.cwd, file);
  const shown = relative(io.cwd, path) || path;
  try {
    await readPolicyFile(path, shown, true);
  } catch (error) {
    if (!(error instanceof PolicyError)) throw error;
    if (format === 'json') {
      io.stdout(
        `${JSON.stringify({ valid: false, file: shown, problems: error.problems }, null, 2)}\n`,
      );
    } else {
      io.stderr(`${error.problems.map(formatPolicyProblem).join('\n')}\n`);
      io.stderr(`${plural(error.problems.length, 'problem')} in ${shown}.\n`);
    }
    return ExitCode.error;
  }
  if (format === 'json') {
    io.stdout(`${JSON.stringify({ valid: true, file: shown, problems: [] }, null, 2)}\n`);
  } else {
    io.stdout(`${shown} is a valid AUREUS policy.\n`);
  }
  return ExitCode.pass;
}

/** `aureus policy show`: the effective policy with defaults, as YAML (explained) or JSON. */
export async function showPolicyCommand(context: CommandContext): Promise<number> {
  const { io, root, options, format } = context;
  const loaded = await loadPolicy({ root, file: options.policy, cwd: io.cwd });
  if (format === 'json') {
    io.stdout(renderPolicy(loaded.policy, 'json'));
    return ExitCode.pass;
  }
  const origin =
    loaded.source.kind === 'file'
      ? `${loaded.source.path}, with defaults for every key it leaves out`
      : 'the built-in default policy (this repository has no .aureus/policy.yaml)';
  io.stdout(`# Effective AUREUS policy: ${origin}.\n${renderPolicy(loaded.policy, 'yaml')}`);
  return ExitCode.pass;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
