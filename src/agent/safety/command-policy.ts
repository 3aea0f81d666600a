import type { ToolResult } from '../tool-contract.js';

export type CommandRefusal = Extract<ToolResult, { ok: false }> & { readonly refusedBy: 'safety' };

const NETWORK_TOOLS = new Set([
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'ftp',
  'telnet',
  'socat',
]);
const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'csh',
  'tcsh',
  'pwsh',
  'powershell',
  'cmd',
]);
/** Interpreters and the flags that make them run code given on the command line. */
const INLINE_CODE: Readonly<Record<string, RegExp>> = {
  node: /^(?:-e|--eval|-p|--print)(?:=|$)/,
  deno: /^eval$/,
  python: /^-c/,
  python3: /^-c/,
  perl: /^-[a-zA-Z]*[eE]/,
  ruby: /^-[a-zA-Z]*e/,
  php: /^-r/,
};
/** Runners that start whatever command follows them. */
const LAUNCHERS = new Set([
  'env',
  'xargs',
  'sudo',
  'doas',
  'nohup',
  'timeout',
  'nice',
  'exec',
  'eval',
]);
const GIT_DENIED = new Set([
  'push',
  'remote',
  'config',
  'fetch',
  'pull',
  'clone',
  'ls-remote',
  'submodule',
  'send-email',
  'credential',
  'daemon',
  'request-pull',
]);
const PACKAGE_MANAGERS = new Set(['npm', 'yarn', 'pnpm']);
const PUBLISHING = new Set([
  'publish',
  'unpublish',
  'adduser',
  'login',
  'logout',
  'token',
  'owner',
  'dist-tag',
  'deprecate',
  'access',
]);
const INSTALLING = new Set(['install', 'i', 'ci', 'add', 'update', 'up', 'upgrade']);

/**
 * Whether the builder may run `argv`, as one tier-2 action: the deny-list first (even an
 * allow-listed command is refused when it reaches the network, publishes, starts a shell or
 * inline code, or names a path outside the tree), then an exact match with an allowed command
 * or the project's test command: no prefix, no extra argument.
 */
export function commandRefusal(
  argv: readonly string[],
  allowed: readonly (readonly string[])[],
): CommandRefusal | undefined {
  const denied = deniedBecause(argv);
  if (denied !== undefined) {
    return {
      ok: false,
      refusedBy: 'safety',
      error: `the command ${JSON.stringify(argv)} is denied: ${denied}.`,
      hint: 'use file tools for what you need, or one of the allowed commands as it is listed.',
    };
  }
  if (allowed.some((entry) => sameArgv(entry, argv))) return undefined;
  const listed = allowed.map((entry) => JSON.stringify(entry)).join(', ') || 'none';
  return {
    ok: false,
    refusedBy: 'safety',
    error: `the command ${JSON.stringify(argv)} is not allowed: only exact matches of permissions.allowed_commands and the project's test command run.`,
    hint: `run one of these exactly: ${listed}.`,
  };
}

function deniedBecause(argv: readonly string[]): string | undefined {
  const [first, ...rest] = argv;
  if (first === undefined || first === '') return 'it is empty';
  const program = (first.split(/[\\/]/).pop() ?? first).toLowerCase().replace(/\.exe$/, '');
  if (
    argv.some(
      (arg) =>
        /(?:^|=)(?:\/|~|[A-Za-z]:[\\/])/.test(arg) || /(?:^|[=/\\])\.\.(?:[/\\]|$)/.test(arg),
    )
  ) {
    return "an argument names a path outside the run's tree";
  }
  if (NETWORK_TOOLS.has(program)) return `${program} reaches the network`;
  if (LAUNCHERS.has(program)) return `${program} starts another command`;
  if (SHELLS.has(program))
    return `${program} is a shell, and the builder runs commands without one`;
  const inline = INLINE_CODE[program.replace(/[\d.]+$/, '')] ?? INLINE_CODE[program];
  if (inline !== undefined && rest.some((arg) => inline.test(arg)))
    return `${program} would run code given inline`;
  if (program === 'git') {
    const sub = rest[0];
    if (sub === undefined || sub.startsWith('-'))
      return 'git options before the subcommand can change its configuration';
    if (GIT_DENIED.has(sub)) return `git ${sub} reaches a remote or changes git's configuration`;
  }
  if (PACKAGE_MANAGERS.has(program)) {
    const sub = rest.find((arg) => !arg.startsWith('-'));
    if (sub !== undefined && PUBLISHING.has(sub))
      return `${program} ${sub} publishes or manages credentials`;
    if (sub !== undefined && INSTALLING.has(sub) && !rest.includes('--ignore-scripts')) {
      return `${program} ${sub} without --ignore-scripts runs install scripts`;
    }
  }
  return undefined;
}

function sameArgv(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((arg, index) => arg === b[index]);
}
