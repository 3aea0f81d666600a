/**
 * AUREUS's architecture as dependency rules, checked in CI (`npm run boundaries`):
 * one pure core that takes data and returns data; adapters that do I/O; thin entry points.
 */
const CORE = '^src/(model|analysis|policy|pricing|critic|reflexion|gate|report)/';
const ADAPTERS = '^src/(memory|git|github|llm|parsers)/';
const ENTRY_POINTS = '^src/(cli|hooks|action|bot|agent)/';
/** Use cases shared by the entry points: gather inputs through adapters, run the core. */
const WORKSPACE = '^src/workspace/';
/**
 * `aureus learn`'s reasoning: outside the verdict core on purpose (it never judges a diff), but
 * as pure: ledger lines and history in, a policy proposal out; its command does the I/O.
 */
const LEARN = '^src/learn/';
/**
 * `aureus report`: ledger entries to a dashboard. Outside the verdict core on purpose (it never
 * runs on a diff and it reads its chart library from disk); it may use the core and adapters.
 */
const DASHBOARD = '^src/dashboard/';
const IO_MODULES =
  '^(node:)?(fs|fs/promises|child_process|net|http|https|http2|dgram|dns|tls|cluster|worker_threads|os|process|readline|vm|v8|perf_hooks|timers|timers/promises|inspector)$';
const IO_PACKAGES =
  '^(@octokit|@actions|probot|simple-git|@anthropic-ai|openai|proper-lockfile|@probot)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-without-io',
      comment: 'The core is pure: file system, processes, network and clocks belong to adapters.',
      severity: 'error',
      from: { path: CORE },
      to: { path: IO_MODULES },
    },
    {
      name: 'core-without-io-packages',
      comment: 'The core never talks to git, GitHub, a model or a lock file directly.',
      severity: 'error',
      from: { path: CORE },
      to: { path: IO_PACKAGES },
    },
    {
      name: 'core-not-to-edges',
      comment: 'The core does not know its adapters or entry points; they call it.',
      severity: 'error',
      from: { path: CORE },
      to: { path: [ADAPTERS, WORKSPACE, DASHBOARD, ENTRY_POINTS, LEARN] },
    },
    {
      name: 'adapters-not-to-entry-points',
      comment:
        'Adapters serve every entry point alike and know nothing of the use cases above them.',
      severity: 'error',
      from: { path: ADAPTERS },
      to: { path: [WORKSPACE, DASHBOARD, ENTRY_POINTS, LEARN] },
    },
    {
      name: 'learn-without-io',
      comment:
        'Learning takes data and returns a proposal; its command reads the ledgers and the history.',
      severity: 'error',
      from: { path: LEARN },
      to: { path: [IO_MODULES, IO_PACKAGES] },
    },
    {
      name: 'learn-below-entry-points',
      comment: 'Entry points call learning, which knows nothing of them nor of the use cases.',
      severity: 'error',
      from: { path: LEARN },
      to: { path: [WORKSPACE, ENTRY_POINTS] },
    },
    {
      name: 'dashboard-below-entry-points',
      comment:
        'The dashboard turns ledger entries into a page; the CLI reads the ledgers and calls it, never the other way round.',
      severity: 'error',
      from: { path: DASHBOARD },
      to: { path: [WORKSPACE, ENTRY_POINTS] },
    },
    {
      name: 'entry-points-independent',
      comment: 'CLI, hooks, Action, App and builder share the core, not each other.',
      severity: 'error',
      from: { path: '^src/(hooks|bot|agent)/' },
      to: { path: ENTRY_POINTS, pathNot: '^src/$1/' },
    },
    {
      name: 'action-starts-the-builder-only',
      comment:
        'The builder step (dist/builder.mjs) runs the builder through its one public file, as `aureus implement` does; it knows nothing else of the other entry points.',
      severity: 'error',
      from: { path: '^src/action/' },
      to: { path: ENTRY_POINTS, pathNot: ['^src/action/', '^src/agent/implement-run[.]ts$'] },
    },
    {
      name: 'cli-starts-the-app-only',
      comment:
        '`aureus serve` starts the App through its two public files, `aureus implement` the builder through one; the CLI knows nothing else of either.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: {
        path: ENTRY_POINTS,
        pathNot: [
          '^src/cli/',
          '^src/bot/(serve-app|app-settings)[.]ts$',
          '^src/agent/implement-run[.]ts$',
        ],
      },
    },
    {
      name: 'no-circular',
      comment: 'Cycles make modules impossible to understand or test on their own.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'not-to-dev-dependencies',
      comment: 'What ships may not need a package that is only installed for development.',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
