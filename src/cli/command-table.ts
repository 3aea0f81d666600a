import type { CommandContext } from './commands/command-context.js';
import {
  ANALYZE_HELP,
  BASELINE_HELP,
  CHECK_HELP,
  COMMIT_MSG_USAGE,
  HOOK_NOTES,
  HOOKS_INSTALL_USAGE,
  HOOKS_UNINSTALL_USAGE,
  IMPLEMENT_HELP,
  INIT_HELP,
  LEARN_HELP,
  LEDGER_COMPACT_USAGE,
  LEDGER_QUERY_USAGE,
  LEDGER_RESTORE_USAGE,
  LEDGER_SHOW_USAGE,
  LEDGER_VERIFY_USAGE,
  MEMORY_ADR_USAGE,
  MEMORY_PATTERNS_USAGE,
  POLICY_SHOW_USAGE,
  POLICY_VALIDATE_USAGE,
  POST_COMMIT_USAGE,
  PRE_COMMIT_USAGE,
  PRE_PUSH_USAGE,
  PRICE_HELP,
  REPORT_HELP,
  SERVE_HELP,
  SIMPLIFY_HELP,
  usage,
} from './help-text.js';

export const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  debug: { type: 'boolean' },
  format: { type: 'string' },
  repo: { type: 'string' },
  policy: { type: 'string' },
  // Repeatable only where a command reads several ledgers (Command.manyFiles); once elsewhere.
  file: { type: 'string', multiple: true },
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
  builder: { type: 'boolean' },
  action: { type: 'string' },
  force: { type: 'boolean' },
  remote: { type: 'string' },
  anchor: { type: 'string' },
  'defer-to-commit-msg': { type: 'boolean' },
  apply: { type: 'boolean' },
  test: { type: 'boolean' },
  changed: { type: 'boolean' },
  'task-file': { type: 'string' },
  resume: { type: 'string' },
  kind: { type: 'string' },
  actor: { type: 'string' },
  issue: { type: 'string' },
  verdict: { type: 'string' },
  rule: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  overridden: { type: 'boolean' },
  from: { type: 'string' },
  ledger: { type: 'string', multiple: true },
  write: { type: 'boolean' },
} as const;

export type OptionName = keyof typeof OPTIONS;

export interface Command {
  readonly run: (context: CommandContext) => Promise<number>;
  /** Options beyond --help, --debug and --repo that the command accepts. */
  readonly accepts: readonly OptionName[];
  /**
   * What --format may name, the default first. Each must change the output: a format accepted
   * and ignored reads as a report in that format, so any other is refused before the run.
   */
  readonly formats: readonly [string, ...string[]];
  readonly maxPositionals: number;
  readonly help: string;
  /** --file may be given more than once: the command reads every ledger named. */
  readonly manyFiles?: true;
}

// Commands load their modules on first use: `aureus ledger verify` should not pay for the YAML
// parser and the policy validator, and start-up time is what a git hook user feels.
const policy = () => import('./commands/policy-command.js');
const ledger = () => import('./commands/ledger-command.js');
const ledgerQuery = () => import('./commands/ledger-query-command.js');
const ledgerRetention = () => import('./commands/ledger-retention-command.js');
const analyze = () => import('./commands/analyze-command.js');
const check = () => import('./commands/check-command.js');
const init = () => import('./commands/init-command.js');
const hook = () => import('./commands/hook-command.js');
const hooks = () => import('./commands/hooks-command.js');
const serve = () => import('./commands/serve-command.js');
const simplify = () => import('./commands/simplify-command.js');
const implement = () => import('./commands/implement-command.js');
const learn = () => import('./commands/learn-command.js');
const report = () => import('./commands/report-command.js');
const memory = () => import('./commands/memory-command.js');

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
    formats: ['text', 'json', 'markdown', 'sarif'],
    maxPositionals: 0,
    help: CHECK_HELP,
  },
  serve: {
    run: async (context) => (await serve()).serveCommand(context),
    accepts: [],
    formats: ['text'],
    maxPositionals: 0,
    help: SERVE_HELP,
  },
  init: {
    run: async (context) => (await init()).initCommand(context),
    accepts: ['dry-run', 'yes', 'without-hooks', 'builder', 'action', 'force'],
    formats: ['text'],
    maxPositionals: 0,
    help: INIT_HELP,
  },
  baseline: {
    run: async (context) => (await check()).baselineCommand(context),
    accepts: ['policy'],
    formats: ['text'],
    maxPositionals: 0,
    help: BASELINE_HELP,
  },
  price: {
    run: async (context) => (await check()).priceCommand(context),
    accepts: CHANGE_OPTIONS,
    formats: ['text', 'json'],
    maxPositionals: 0,
    help: PRICE_HELP,
  },
  simplify: {
    run: async (context) => (await simplify()).simplifyCommand(context),
    accepts: ['format', 'policy', 'apply', 'test', 'changed'],
    formats: ['text', 'diff', 'json'],
    maxPositionals: 0,
    help: SIMPLIFY_HELP,
  },
  implement: {
    run: async (context) => (await implement()).implementCommand(context),
    accepts: ['format', 'task-file', 'resume', 'yes'],
    formats: ['text', 'json'],
    maxPositionals: 50,
    help: IMPLEMENT_HELP,
  },
  analyze: {
    run: async (context) => (await analyze()).analyzeCommand(context),
    accepts: ['format', 'policy', 'ref', 'parser', 'facts'],
    formats: ['text', 'json'],
    maxPositionals: 0,
    help: ANALYZE_HELP,
  },
  learn: {
    run: async (context) => (await learn()).learnCommand(context),
    accepts: ['format', 'since', 'output', 'shared', 'remote', 'file'],
    formats: ['text', 'json', 'yaml-patch'],
    maxPositionals: 0,
    help: LEARN_HELP,
  },
  'policy validate': {
    run: async (context) => (await policy()).validatePolicyCommand(context),
    accepts: ['format'],
    formats: ['text', 'json'],
    maxPositionals: 1,
    help: usage(POLICY_VALIDATE_USAGE),
  },
  'policy show': {
    run: async (context) => (await policy()).showPolicyCommand(context),
    accepts: ['format', 'policy'],
    formats: ['yaml', 'json'],
    maxPositionals: 0,
    help: usage(POLICY_SHOW_USAGE),
  },
  'ledger show': {
    run: async (context) => (await ledger()).showLedgerCommand(context),
    accepts: ['format', 'file', 'shared', 'remote'],
    formats: ['text', 'json'],
    maxPositionals: 0,
    help: usage(LEDGER_SHOW_USAGE),
  },
  'ledger query': {
    run: async (context) => (await ledgerQuery()).queryLedgerCommand(context),
    accepts: [
      'format',
      'file',
      'shared',
      'remote',
      'kind',
      'actor',
      'issue',
      'verdict',
      'rule',
      'since',
      'until',
      'overridden',
    ],
    formats: ['text', 'json'],
    maxPositionals: 0,
    help: usage(LEDGER_QUERY_USAGE),
  },
  report: {
    run: async (context) => (await report()).reportCommand(context),
    accepts: ['format', 'ledger', 'shared', 'remote', 'since', 'output'],
    formats: ['html', 'json'],
    maxPositionals: 0,
    help: REPORT_HELP,
  },
  'memory patterns': {
    run: async (context) => (await memory()).memoryPatternsCommand(context),
    accepts: ['format', 'shared', 'remote', 'file', 'write'],
    manyFiles: true,
    formats: ['text', 'json'],
    maxPositionals: 0,
    help: usage(MEMORY_PATTERNS_USAGE),
  },
  'memory adr': {
    run: async (context) => (await memory()).memoryAdrCommand(context),
    accepts: ['format', 'shared', 'remote', 'file', 'write'],
    manyFiles: true,
    formats: ['text', 'json'],
    maxPositionals: 0,
    help: usage(MEMORY_ADR_USAGE),
  },
  'ledger verify': {
    run: async (context) => (await ledger()).verifyLedgerCommand(context),
    accepts: ['format', 'file', 'shared', 'remote', 'anchor'],
    formats: ['text', 'json'],
    maxPositionals: 0,
    help: usage(LEDGER_VERIFY_USAGE),
  },
  'ledger compact': {
    run: async (context) => (await ledgerRetention()).compactLedgerCommand(context),
    accepts: ['format', 'file', 'policy'],
    formats: ['text', 'json'],
    maxPositionals: 0,
    help: usage(LEDGER_COMPACT_USAGE),
  },
  'ledger restore': {
    run: async (context) => (await ledgerRetention()).restoreLedgerCommand(context),
    accepts: ['format', 'file', 'from'],
    formats: ['text', 'json'],
    maxPositionals: 0,
    help: usage(LEDGER_RESTORE_USAGE),
  },
  'hook pre-commit': {
    run: async (context) => (await hook()).preCommitHookCommand(context),
    accepts: ['defer-to-commit-msg'],
    formats: ['text'],
    maxPositionals: 0,
    help: usage(PRE_COMMIT_USAGE, HOOK_NOTES),
  },
  'hook commit-msg': {
    run: async (context) => (await hook()).commitMsgHookCommand(context),
    accepts: [],
    formats: ['text'],
    maxPositionals: 1,
    help: usage(COMMIT_MSG_USAGE, HOOK_NOTES),
  },
  'hook post-commit': {
    run: async (context) => (await hook()).postCommitHookCommand(context),
    accepts: [],
    formats: ['text'],
    maxPositionals: 0,
    help: usage(POST_COMMIT_USAGE, HOOK_NOTES),
  },
  'hook pre-push': {
    run: async (context) => (await hook()).prePushHookCommand(context),
    accepts: [],
    formats: ['text'],
    // git passes the remote's name and URL.
    maxPositionals: 2,
    help: usage(PRE_PUSH_USAGE, HOOK_NOTES),
  },
  'hooks install': {
    run: async (context) => (await hooks()).installHooksCommand(context),
    accepts: [],
    formats: ['text'],
    maxPositionals: 2,
    help: usage(HOOKS_INSTALL_USAGE),
  },
  'hooks uninstall': {
    run: async (context) => (await hooks()).uninstallHooksCommand(context),
    accepts: [],
    formats: ['text'],
    maxPositionals: 0,
    help: usage(HOOKS_UNINSTALL_USAGE),
  },
};

/** Help for a group of commands (`aureus policy`). */
export const GROUP_HELP: Readonly<Record<string, string>> = {
  policy: usage(POLICY_VALIDATE_USAGE, POLICY_SHOW_USAGE),
  ledger: usage(
    LEDGER_SHOW_USAGE,
    LEDGER_QUERY_USAGE,
    LEDGER_VERIFY_USAGE,
    LEDGER_COMPACT_USAGE,
    LEDGER_RESTORE_USAGE,
  ),
  memory: usage(MEMORY_PATTERNS_USAGE, MEMORY_ADR_USAGE),
  hook: usage(PRE_COMMIT_USAGE, COMMIT_MSG_USAGE, POST_COMMIT_USAGE, PRE_PUSH_USAGE, HOOK_NOTES),
  hooks: usage(HOOKS_INSTALL_USAGE, HOOKS_UNINSTALL_USAGE),
};
