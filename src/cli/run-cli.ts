import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { environmentError, movableFolders } from '../memory/environment-error.js';
import { AureusError, ExitCode } from '../model/errors.js';
import { formatPolicyProblem, PolicyError } from '../policy/policy-problem.js';
import { nearest } from '../policy/suggest-key.js';
import { type CliIo, type CommandIo, commandIo } from './cli-io.js';
import { COMMANDS, type Command, GROUP_HELP, OPTIONS, type OptionName } from './command-table.js';
import { findRepositoryRoot } from './find-repository-root.js';
import { MAIN_HELP } from './help-text.js';

/**
 * Runs one `aureus` invocation in-process and returns its exit code: 0 pass, 1 the policy says
 * no, 2 a configuration, usage or environment error. Never exits the process itself.
 */
export async function runCli(
  argv: readonly string[],
  raw: CliIo,
  version: string,
): Promise<number> {
  const debug = argv.includes('--debug');
  const io = commandIo(raw);
  try {
    return await dispatch(argv, io, version);
  } catch (error) {
    report(error, io, debug);
    return ExitCode.error;
  }
}

async function dispatch(argv: readonly string[], io: CommandIo, version: string): Promise<number> {
  const { values, positionals } = parse(argv);
  if (values.version) {
    io.stdout(`${version}\n`);
    return ExitCode.pass;
  }
  const found = findCommand(positionals);
  if (found.kind === 'help') {
    io[values.help ? 'stdout' : 'stderr'](found.text);
    return values.help ? ExitCode.pass : ExitCode.error;
  }
  const { name, command, rest } = found;
  if (values.help) {
    io.stdout(command.help);
    return ExitCode.pass;
  }
  checkApplicable(values, command, name);
  const format = values.format ?? command.formats[0];
  if (!command.formats.includes(format))
    throw new AureusError(
      `aureus ${name} cannot print as ${format}.`,
      `use --format ${command.formats.join(', ').replace(/, (?=[^,]*$)/, ' or ')}.`,
    );
  if (rest.length > command.maxPositionals) {
    throw new AureusError(
      `unexpected argument "${rest[command.maxPositionals]}" for aureus ${name}.`,
      `see aureus ${name} --help.`,
    );
  }
  const root =
    values.repo === undefined ? await findRepositoryRoot(io.cwd) : resolve(io.cwd, values.repo);
  const path = (value: string | undefined) =>
    value === undefined ? undefined : resolve(io.cwd, value);
  return command.run({
    io,
    root,
    positionals: rest,
    format,
    options: {
      policy: path(values.policy),
      file: path(values.file?.[0]),
      files: values.file?.map((file) => resolve(io.cwd, file)),
      ref: values.ref,
      parser: values.parser,
      facts: values.facts,
      staged: values.staged,
      base: values.base,
      head: values.head,
      threeDot: values['three-dot'],
      commit: values.commit,
      output: path(values.output),
      all: values.all,
      override: values.override,
      dryRun: values['dry-run'],
      yes: values.yes,
      shared: values.shared,
      withoutHooks: values['without-hooks'],
      builder: values.builder,
      action: values.action,
      force: values.force,
      remote: values.remote,
      anchor: values.anchor,
      deferToCommitMsg: values['defer-to-commit-msg'],
      apply: values.apply,
      test: values.test,
      changed: values.changed,
      taskFile: path(values['task-file']),
      resume: values.resume,
      kind: values.kind,
      actor: values.actor,
      issue: values.issue,
      verdict: values.verdict,
      rule: values.rule,
      since: values.since,
      until: values.until,
      overridden: values.overridden,
      from: path(values.from),
      ledgers: values.ledger?.map((file) => resolve(io.cwd, file)),
      write: values.write,
    },
    version,
  });
}

type Found =
  | { kind: 'command'; name: string; command: Command; rest: readonly string[] }
  | { kind: 'help'; text: string };

/** The command named by the first one or two words, the help to show, or an unknown-word error. */
function findCommand(words: readonly string[]): Found {
  const [first, second, ...rest] = words;
  if (first === undefined) return { kind: 'help', text: MAIN_HELP };
  const pair = `${first} ${second ?? ''}`;
  const both = commandNamed(pair);
  if (both !== undefined) return { kind: 'command', name: pair, command: both, rest };
  const single = commandNamed(first);
  if (single !== undefined)
    return { kind: 'command', name: first, command: single, rest: words.slice(1) };
  const groupHelp = Object.hasOwn(GROUP_HELP, first) ? GROUP_HELP[first] : undefined;
  if (groupHelp === undefined) {
    const tops = [...new Set(Object.keys(COMMANDS).map((name) => name.split(' ')[0] ?? name))];
    throw unknownWord(`command "${first}"`, first, tops, 'aureus --help');
  }
  if (second === undefined) return { kind: 'help', text: groupHelp };
  const actions = Object.keys(COMMANDS).flatMap((name) =>
    name.startsWith(`${first} `) ? [name.slice(first.length + 1)] : [],
  );
  throw unknownWord(`${first} command "${second}"`, second, actions, `aureus ${first} --help`);
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
    const help = `${commandBefore(argv)} --help`;
    // parseArgs says "Option '--base <value>' argument missing": say it in the CLI's words.
    if (option !== undefined && /argument missing/.test(message)) {
      const flag = option.split(' ')[0] ?? option;
      throw new AureusError(
        `${flag} needs a value.`,
        `write one after it (${flag} VALUE); see ${help}.`,
      );
    }
    throw new AureusError(
      message.split('. ')[0]?.replace(/\.$/, '').concat('.') ?? message,
      `see ${help}.`,
    );
  }
}

/** `aureus check` for `check --base`: the command the words before the first option name. */
function commandBefore(argv: readonly string[]): string {
  const firstOption = argv.findIndex((word) => word.startsWith('-'));
  const [first, second] = firstOption === -1 ? argv : argv.slice(0, firstOption);
  if (
    first !== undefined &&
    second !== undefined &&
    commandNamed(`${first} ${second}`) !== undefined
  )
    return `aureus ${first} ${second}`;
  if (first !== undefined && commandNamed(first) !== undefined) return `aureus ${first}`;
  return 'aureus';
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
  const files = Array.isArray(values.file) ? values.file.length : 0;
  if (files > 1 && command.manyFiles !== true)
    throw new AureusError(
      `aureus ${name} reads one file, and --file was given ${files} times.`,
      'give --file once.',
    );
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

/** An error's message quotes names and values: `io.stderr` escapes what would act on a terminal. */
function report(error: unknown, io: CommandIo, debug: boolean): void {
  // A full disk or a read-only folder is the machine's, not a bug: said with its fix.
  const known =
    error instanceof AureusError
      ? error
      : environmentError(error, { movable: movableFolders(process.env) });
  if (error instanceof PolicyError) {
    io.stderr(`${error.problems.map(formatPolicyProblem).join('\n')}\n`);
  } else if (known !== undefined) {
    io.stderr(`aureus: ${known.message}\nTo resolve, ${known.hint}\n`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(
      `aureus: internal error: ${message}\nTo resolve, rerun with --debug and report the output.\n`,
    );
  }
  if (debug && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
}

/**
 * The command a user typed, by its own name only: `aureus constructor` or `aureus __proto__` is
 * an unknown command, not a property every object inherits.
 */
function commandNamed(name: string): Command | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}
