/**
 * AUREUS's architecture as dependency rules, checked in CI (`npm run boundaries`): one pure core
 * that takes data and returns data; adapters that do I/O; use cases that gather inputs through
 * adapters and run the core; thin entry points. The README's architecture map is generated from
 * these layers (scripts/architecture-map.mjs), so the two cannot disagree.
 */
/** The pipeline's stages: data in, data out. */
const CORE = '^src/(model|analysis|policy|pricing|critic|reflexion|gate|report)/';
/** I/O, each for one outside system. */
const ADAPTERS = '^src/(memory|git|github|llm)/';
/**
 * What the entry points do, shared between them: `scan` reads a repository or a change into
 * facts (sources, parser threads, import resolution, the content-keyed caches); `check` judges a
 * change (the base's policy and baseline, the gate, the ledger); `simplify` runs reflexion on a
 * checkout and delivers its patches; `init` surveys a project and writes its first policy;
 * `learn` proposes a policy from the ledgers and the history; `dashboard` draws the ledgers.
 * The last two never judge a diff, which is why they sit outside the verdict's core.
 */
const USE_CASES = '^src/(scan|check|simplify|init|learn|dashboard)/';
const ENTRY_POINTS = '^src/(cli|hooks|action|bot|agent)/';
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
      to: { path: [ADAPTERS, USE_CASES, ENTRY_POINTS] },
    },
    {
      name: 'adapters-not-to-entry-points',
      comment:
        'Adapters serve every entry point alike and know nothing of the use cases above them.',
      severity: 'error',
      from: { path: ADAPTERS },
      to: { path: [USE_CASES, ENTRY_POINTS] },
    },
    {
      name: 'use-cases-not-to-entry-points',
      comment: 'A use case serves every entry point alike and knows none of them.',
      severity: 'error',
      from: { path: USE_CASES },
      to: { path: ENTRY_POINTS },
    },
    {
      name: 'scan-is-the-bottom-use-case',
      comment: 'Reading a repository into facts knows nothing of what is then done with them.',
      severity: 'error',
      from: { path: '^src/scan/' },
      to: { path: '^src/(check|simplify|init|learn|dashboard)/' },
    },
    {
      name: 'check-stands-alone',
      comment:
        'Judging a change needs only the facts: the other use cases build on it, not it on them.',
      severity: 'error',
      from: { path: '^src/check/' },
      to: { path: '^src/(simplify|init|learn|dashboard)/' },
    },
    {
      name: 'simplify-and-init-independent',
      comment:
        'Reflexion on a checkout and the first policy share the check and the scan, not each other.',
      severity: 'error',
      from: { path: '^src/(simplify|init)/' },
      to: { path: '^src/(simplify|init|learn|dashboard)/', pathNot: '^src/$1/' },
    },
    {
      name: 'learn-without-io',
      comment:
        'Learning takes data and returns a proposal; its command reads the ledgers and the history.',
      severity: 'error',
      from: { path: '^src/learn/' },
      to: { path: [IO_MODULES, IO_PACKAGES] },
    },
    {
      name: 'learn-below-entry-points',
      comment:
        'Entry points call learning, which knows nothing of them nor of the other use cases but for the diff it prints, as init does.',
      severity: 'error',
      from: { path: '^src/learn/' },
      to: {
        path: [USE_CASES, ENTRY_POINTS],
        pathNot: ['^src/learn/', '^src/init/unified-diff[.]ts$'],
      },
    },
    {
      name: 'dashboard-below-entry-points',
      comment:
        'The dashboard turns ledger entries into a page; the CLI reads the ledgers and calls it, never the other way round.',
      severity: 'error',
      from: { path: '^src/dashboard/' },
      to: { path: [USE_CASES, ENTRY_POINTS], pathNot: '^src/dashboard/' },
    },
    {
      name: 'entry-points-independent',
      comment: 'CLI, hooks, Action, App and builder share the core, not each other.',
      severity: 'error',
      from: { path: '^src/(bot|agent)/' },
      to: { path: ENTRY_POINTS, pathNot: '^src/$1/' },
    },
    {
      name: 'hooks-run-through-the-cli',
      comment:
        'git runs each hook as `aureus hook <name>`: the hooks share the command context and the local ledger with the CLI, and know nothing else of the other entry points.',
      severity: 'error',
      from: { path: '^src/hooks/' },
      to: {
        path: ENTRY_POINTS,
        pathNot: ['^src/hooks/', '^src/cli/commands/(command-context|record-locally)[.]ts$'],
      },
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
      name: 'cli-starts-the-other-entry-points',
      comment:
        '`aureus serve` starts the App through its two public files, `aureus implement` the builder through one, `aureus hook` and `aureus init` the hooks; the CLI knows nothing else of the other entry points.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: {
        path: ENTRY_POINTS,
        pathNot: [
          '^src/cli/',
          '^src/hooks/',
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
