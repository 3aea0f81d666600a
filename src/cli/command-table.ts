import type { CommandContext } from './commands/command-context.js';
import {
  ANALYZE_HELP,
  CHECK_HELP,
  HOOK_HELP,
  HOOKS_HELP,
  IMPLEMENT_HELP,
  INIT_HELP,
  LEDGER_HELP,
  POLICY_HELP,
  SERVE_HELP,
  SIMPLIFY_HELP,
} from './help-text.js';

export const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  debug: { type: 'boolean' },
  format: { type: 'string' },
  repo: { type: 'string' },
  policy: { type: 'string' },
  file: { type: 'string' },
  ref: { type: 'string' },
  parser: { type: 'string' },
  facts: { type: 'boolean' },
  staged: { type: 'boolean' },
  base: { type: 'string' },
  head: { type: 'string' },
  'three-dot': { type: 'boolean' },
  commit: { type: 'string' },
  output: { type: 'string' },
  all: { type: 'boolean' },
  override: { type: 'string' },
  'dry-run': { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  shared: { type: 'boolean' },
  'without-hooks': { type: 'boolean' },
  remote: { type: 'string' },
  anchor: { type: 'string' },
  'defer-to-commit-msg': { type: 'boolean' },
  apply: { type: 'boolean' },
  test: { type: 'boolean' },
  changed: { type: 'boolean' },
  'task-file': { type: 'string' },
  resume: { type: 'string' },
} as const;

export type OptionName = keyof typeof OPTIONS;

export interface Command {
  readonly run: (context: CommandContext) => Promise<number>;
  /** Options beyond --help, --debug and --repo that the command accepts. */
  readonly accepts: readonly OptionName[];
  readonly defaultFormat: string;
  readonly maxPositionals: number;
  readonly help: string;
}

// Commands load their modules on first use: `aureus ledger verify` should not pay for the YAML
// parser and the policy validator, and start-up time is what a git hook user feels.
const policy = () => import('./commands/policy-command.js');
const ledger = () => import('./commands/ledger-command.js');
const analyze = () => import('./commands/analyze-command.js');
const check = () => import('./commands/check-command.js');
const init = () => import('./commands/init-command.js');
const hook = () => import('./commands/hook-command.js');
const hooks = () => import('./commands/hooks-command.js');
const serve = () => import('./commands/serve-command.js');
const simplify = () => import('./commands/simplify-command.js');
const implement = () => import('./commands/implement-command.js');

const CHANGE_OPTIONS: readonly OptionName[] = [
  'staged',
  'base',
  'head',
  'three-dot',
  'commit',
  'policy',
  'format',
];

/** Every command by its words (`policy validate`, `analyze`). */
export const COMMANDS: Readonly<Record<string, Command>> = {
  check: {
    run: async (context) => (await check()).checkCommand(context),
    accepts: [...CHANGE_OPTIONS, 'output', 'all', 'override'],
    defaultFormat: 'text',
    maxPositionals: 0,
    help: CHECK_HELP,
  },
  serve: {
    run: async (context) => (await serve()).serveCommand(context),
    accepts: [],
    defaultFormat: 'text',
    maxPositionals: 0,
    help: SERVE_HELP,
  },
  init: {
    run: async (context) => (await init()).initCommand(context),
    accepts: ['dry-run', 'yes', 'without-hooks'],
    defaultFormat: 'text',
    maxPositionals: 0,
    help: INIT_HELP,
  },
  baseline: {
    run: async (context) => (await check()).baselineCommand(context),
    accepts: ['policy'],
    defaultFormat: 'text',
    maxPositionals: 0,
    help: CHECK_HELP,
  },
  price: {
    run: async (context) => (await check()).priceCommand(context),
    accepts: CHANGE_OPTIONS,
    defaultFormat: 'text',
    maxPositionals: 0,
    help: CHECK_HELP,
  },
  simplify: {
    run: async (context) => (await simplify()).simplifyCommand(context),
    accepts: ['format', 'policy', 'apply', 'test', 'changed'],
    defaultFormat: 'text',
    maxPositionals: 0,
    help: SIMPLIFY_HELP,
  },
  implement: {
    run: async (context) => (await implement()).implementCommand(context),
    accepts: ['format', 'task-file', 'resume', 'yes'],
    defaultFormat: 'text',
    maxPositionals: 50,
    help: IMPLEMENT_HELP,
  },
  analyze: {
    run: async (context) => (await analyze()).analyzeCommand(context),
    accepts: ['format', 'policy', 'ref', 'parser', 'facts'],
    defaultFormat: 'text',
    maxPositionals: 0,
    help: ANALYZE_HELP,
  },
  'policy validate': {
    run: async (context) => (await policy()).validatePolicyCommand(context),
    accepts: ['format'],
    defaultFormat: 'text',
    maxPositionals: 1,
    help: POLICY_HELP,
  },
  'policy show': {
    run: async (context) => (await policy()).showPolicyCommand(context),
    accepts: ['format', 'policy'],
    defaultFormat: 'yaml',
    maxPositionals: 0,
    help: POLICY_HELP,
  },
  'ledger show': {
    run: async (context) => (await ledger()).showLedgerCommand(context),
    accepts: ['format', 'file', 'shared', 'remote'],
    defaultFormat: 'text',
    maxPositionals: 0,
    help: LEDGER_HELP,
  },
  'ledger verify': {
    run: async (context) => (await ledger()).verifyLedgerCommand(context),
    accepts: ['format', 'file', 'shared', 'remote', 'anchor'],
    defaultFormat: 'text',
    maxPositionals: 0,
    help: LEDGER_HELP,
  },
  'hook pre-commit': {
    run: async (context) => (await hook()).preCommitHookCommand(context),
    accepts: ['defer-to-commit-msg'],
    defaultFormat: 'text',
    maxPositionals: 0,
    help: HOOK_HELP,
  },
  'hook commit-msg': {
    run: async (context) => (await hook()).commitMsgHookCommand(context),
    accepts: [],
    defaultFormat: 'text',
    maxPositionals: 1,
    help: HOOK_HELP,
  },
  'hook post-commit': {
    run: async (context) => (await hook()).postCommitHookCommand(context),
    accepts: [],
    defaultFormat: 'text',
    maxPositionals: 0,
    help: HOOK_HELP,
  },
  'hook pre-push': {
    run: async (context) => (await hook()).prePushHookCommand(context),
    accepts: [],
    defaultFormat: 'text',
    // git passes the remote's name and URL.
    maxPositionals: 2,
    help: HOOK_HELP,
  },
  'hooks install': {
    run: async (context) => (await hooks()).installHooksCommand(context),
    accepts: [],
    defaultFormat: 'text',
    maxPositionals: 2,
    help: HOOKS_HELP,
  },
  'hooks uninstall': {
    run: async (context) => (await hooks()).uninstallHooksCommand(context),
    accepts: [],
    defaultFormat: 'text',
    maxPositionals: 0,
    help: HOOKS_HELP,
  },
};

/** Help for a group of commands (`aureus policy`). */
export const GROUP_HELP: Readonly<Record<string, string>> = {
  policy: POLICY_HELP,
  ledger: LEDGER_HELP,
  hook: HOOK_HELP,
  hooks: HOOKS_HELP,
};
