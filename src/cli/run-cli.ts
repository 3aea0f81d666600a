import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AureusError, ExitCode } from '../model/errors.js';
import { formatPolicyProblem, PolicyError } from '../policy/policy-problem.js';
import { nearest } from '../policy/suggest-key.js';
import type { CliIo } from './cli-io.js';
import type { CommandContext } from './commands/command-context.js';
import { findRepositoryRoot } from './find-repository-root.js';
import { LEDGER_HELP, MAIN_HELP, POLICY_HELP } from './help-text.js';

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  debug: { type: 'boolean' },
  format: { type: 'string' },
  repo: { type: 'string' },
  policy: { type: 'string' },
  file: { type: 'string' },
} as const;

type OptionName = keyof typeof OPTIONS;

interface Command {
  readonly run: (context: CommandContext) => Promise<number>;
  /** Options beyond --help, --debug and --repo that the command accepts. */
  readonly accepts: readonly OptionName[];
  readonly defaultFormat: string;
  readonly maxPositionals: number;
  readonly help: string;
}

// Commands load their modules on first use: `aureus ledger verify` should not pay for the YAML
// parser and the policy validator, and start-up time is what a git hook user feels.
const policyCommands = () => import('./commands/policy-command.js');
const ledgerCommands = () => import('./commands/ledger-command.js');

const COMMANDS: Readonly<Record<string, Readonly<Record<string, Command>>>> = {
  policy: {
    validate: {
      run: async (context) => (await policyCommands()).validatePolicyCommand(context),
      accepts: ['format'],
      defaultFormat: 'text',
      maxPositionals: 1,
      help: POLICY_HELP,
    },
    show: {
      run: async (context) => (await policyCommands()).showPolicyCommand(context),
      accepts: ['format', 'policy'],
      defaultFormat: 'yaml',
      maxPositionals: 0,
      help: POLICY_HELP,
    },
  },
  ledger: {
    show: {
      run: async (context) => (await ledgerCommands()).showLedgerCommand(context),
      accepts: ['format', 'file'],
      defaultFormat: 'text',
      maxPositionals: 0,
      help: LEDGER_HELP,
    },
    verify: {
      run: async (context) => (await ledgerCommands()).verifyLedgerCommand(context),
      accepts: ['format', 'file'],
      defaultFormat: 'text',
      maxPositionals: 0,
      help: LEDGER_HELP,
    },
  },
};

const GROUP_HELP: Readonly<Record<string, string>> = { policy: POLICY_HELP, ledger: LEDGER_HELP };

/**
 * Runs one `aureus` invocation in-process and returns its exit code: 0 pass, 1 the policy says
 * no, 2 a configuration, usage or environment error. Never exits the process itself.
 */
export async function runCli(argv: readonly string[], io: CliIo, version: string): Promise<number> {
  const debug = argv.includes('--debug');
  try {
    return await dispatch(argv, io, version);
  } catch (error) {
    report(error, io, debug);
    return ExitCode.error;
  }
}

async function dispatch(argv: readonly string[], io: CliIo, version: string): Promise<number> {
  const { values, positionals } = parse(argv);
  if (values.version) {
    io.stdout(`${version}\n`);
    return ExitCode.pass;
  }
  const [group, action, ...rest] = positionals;
  if (group === undefined) {
    io[values.help ? 'stdout' : 'stderr'](MAIN_HELP);
    return values.help ? ExitCode.pass : ExitCode.error;
  }
  const actions = COMMANDS[group];
  if (actions === undefined)
    throw unknownWord(`command "${group}"`, group, Object.keys(COMMANDS), 'aureus --help');
  const groupHelp = GROUP_HELP[group] ?? MAIN_HELP;
  if (action === undefined) {
    io[values.help ? 'stdout' : 'stderr'](groupHelp);
    return values.help ? ExitCode.pass : ExitCode.error;
  }
  const command = actions[action];
  if (command === undefined) {
    throw unknownWord(
      `${group} command "${action}"`,
      action,
      Object.keys(actions),
      `aureus ${group} --help`,
    );
  }
  if (values.help) {
    io.stdout(command.help);
    return ExitCode.pass;
  }
  checkApplicable(values, command, `${group} ${action}`);
  if (rest.length > command.maxPositionals) {
    throw new AureusError(
      `unexpected argument "${rest[command.maxPositionals]}" for aureus ${group} ${action}.`,
      `see aureus ${group} --help.`,
    );
  }
  const root =
    values.repo === undefined ? await findRepositoryRoot(io.cwd) : resolve(io.cwd, values.repo);
  return command.run({
    io,
    root,
    positionals: rest,
    format: values.format ?? command.defaultFormat,
    options: {
      policy: values.policy === undefined ? undefined : resolve(io.cwd, values.policy),
      file: values.file === undefined ? undefined : resolve(io.cwd, values.file),
    },
  });
}

function parse(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const option = /'(-{1,2}[^']+)'/.exec(message)?.[1];
    if (option !== undefined && /Unknown option/.test(message)) {
      throw unknownWord(
        `option ${option}`,
        option.replace(/^-+/, ''),
        Object.keys(OPTIONS),
        'aureus --help',
        '--',
      );
    }
    throw new AureusError(
      message.split('. ')[0]?.replace(/\.$/, '').concat('.') ?? message,
      'see aureus --help.',
    );
  }
}

function checkApplicable(
  values: Partial<Record<OptionName, unknown>>,
  command: Command,
  name: string,
): void {
  const always: readonly OptionName[] = ['help', 'version', 'debug', 'repo'];
  for (const option of Object.keys(values)) {
    if (
      always.some((allowed) => allowed === option) ||
      command.accepts.some((allowed) => allowed === option)
    )
      continue;
    throw new AureusError(
      `aureus ${name} does not take --${option}.`,
      `see aureus ${name.split(' ')[0]} --help.`,
    );
  }
}

function unknownWord(
  what: string,
  word: string,
  known: readonly string[],
  help: string,
  prefix = '',
): AureusError {
  const guess = nearest(word, known);
  const hint = guess ? `did you mean ${prefix}${guess}? See ${help}.` : `see ${help} for the list.`;
  return new AureusError(`unknown ${what}.`, hint);
}

function report(error: unknown, io: CliIo, debug: boolean): void {
  if (error instanceof PolicyError) {
    io.stderr(`${error.problems.map(formatPolicyProblem).join('\n')}\n`);
  } else if (error instanceof AureusError) {
    io.stderr(`aureus: ${error.message}\nTo resolve, ${error.hint}\n`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(
      `aureus: internal error: ${message}\nTo resolve, rerun with --debug and report the output.\n`,
    );
  }
  if (debug && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
}
