import type { RunPlace } from '../safety/checkpoints.js';
import { runInSandbox } from '../safety/child-environment.js';
import { commandRefusal } from '../safety/command-policy.js';
import type { ToolDefinition } from '../tool-contract.js';
import type { ToolContext } from './tool-context.js';
import { inputChecker, isRefusal } from './tool-input.js';

export interface CommandSettings {
  /** permissions.allowed_commands and project.stack.test_command (when not empty). */
  readonly allowed: readonly (readonly string[])[];
  readonly timeoutMs: number;
  /** Variables that hold a secret whatever their name (the model's key variable). */
  readonly alsoSecret: readonly string[];
}

const argvInput = {
  type: 'object',
  additionalProperties: false,
  required: ['argv'],
  properties: {
    argv: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: { type: 'string', minLength: 1, maxLength: 1000 },
      description: 'The command as an argument vector, run without a shell.',
    },
  },
};

/** shell_exec: an allowed command, exactly, in the run's tree, without secrets. */
export function shellTool(
  context: ToolContext,
  run: RunPlace,
  settings: CommandSettings,
): ToolDefinition {
  const check = inputChecker<{ argv: string[] }>('shell_exec', argvInput);
  const allowedArgv = (input: unknown) => {
    const checked = check(input);
    if (isRefusal(checked)) return checked;
    return commandRefusal(checked.argv, settings.allowed) ?? checked.argv;
  };
  return {
    spec: {
      name: 'shell_exec',
      description: 'Runs one allowed command (exact argv) in the repository.',
      inputSchema: argvInput,
    },
    tier: 2,
    phases: ['act', 'verify'],
    preview: async (input) => {
      const argv = allowedArgv(input);
      return isRefusal(argv) ? argv : { kind: 'command', argv };
    },
    apply: async (input) => {
      const argv = allowedArgv(input);
      if (isRefusal(argv)) return argv;
      const result = await runInSandbox(argv, {
        cwd: context.tree,
        runDir: run.dir,
        alsoSecret: settings.alsoSecret,
        timeoutMs: settings.timeoutMs,
        maxOutputBytes: context.maxResultBytes,
      });
      return { ok: true, output: { ...result } };
    },
  };
}
