import type { CostBreakdown, CostItem } from '../../src/model/cost.js';
import type { Report, ReportFinding } from '../../src/model/report.js';

/** Sample reports for the renderer tests: one per verdict, a policy change, and extremes. */

const NO_COST: CostBreakdown = {
  loc: 0,
  dependencies: 0,
  abstractions: 0,
  security: 0,
  files: 0,
  modules: 0,
  tool: 0,
  total: 0,
};

function sha(seed: number): string {
  return seed.toString(16).padStart(8, '0').repeat(5);
}

export function finding(overrides: Partial<ReportFinding> = {}): ReportFinding {
  return {
    ruleId: 'god_class',
    severity: 'error',
    message: 'Class Engine has 612 lines of code, more than 500.',
    location: { path: 'src/engine.ts', startLine: 3, endLine: 615 },
    symbol: 'Engine',
    fingerprint: sha(1),
    measured: 612,
    limit: 500,
    related: [],
    status: 'new',
    blocking: true,
    growth: null,
    ...overrides,
  };
}

function report(overrides: Partial<Report>): Report {
  const cost = overrides.cost ?? NO_COST;
  return {
    schemaVersion: 1,
    tool: { name: 'aureus', version: '0.1.0' },
    verdict: 'pass',
    reasons: [],
    change: {
      source: 'range',
      baseSha: sha(0xba5e),
      headSha: sha(0x4ead),
      files: 3,
      complete: true,
      notes: [],
    },
    cost,
    costItems: [],
    dependencies: [],
    budget: { warn: 400, block: 500, remaining: 500 - cost.total },
    findings: [],
    core: {
      loc: 3200,
      locTarget: 4000,
      locHard: 8000,
      files: 20,
      filesBudget: 25,
      modules: 4,
      modulesBudget: 6,
    },
    alternatives: [],
    policy: {
      source: `.aureus/policy.yaml@${sha(0xba5e)}`,
      changed: false,
      changes: [],
      loosens: [],
      approval: null,
      blocks: false,
    },
    ...overrides,
  };
}

export const PASS = report({
  reasons: ['The change costs 42 points, under the warning line of 400.'],
  cost: { ...NO_COST, loc: 42, total: 42 },
  costItems: [{ category: 'loc', points: 42, path: 'src/util.ts', detail: 'adds 42 code lines' }],
});

export const WARN = report({
  verdict: 'warn',
  reasons: ['The change costs 420 points, past the warning line of 400.'],
  cost: { ...NO_COST, loc: 370, abstractions: 50, total: 420 },
  costItems: [
    { category: 'loc', points: 370, path: 'src/report.ts', detail: 'adds 370 code lines' },
    { category: 'abstractions', points: 25, path: 'src/shape.ts', detail: 'new interface Shape' },
    { category: 'abstractions', points: 25, path: 'src/pen.ts', detail: 'new interface Pen' },
  ],
  findings: [
    finding({
      severity: 'warn',
      blocking: false,
      ruleId: 'loc_budget',
      message: 'The core holds 4,300 lines of code, past its target of 4,000.',
      location: null,
      symbol: 'repository',
    }),
    finding({ status: 'baseline', blocking: false, fingerprint: sha(2), symbol: 'Old' }),
  ],
});

const BLOCK_ITEMS: readonly CostItem[] = [
  { category: 'loc', points: 300, path: 'src/big.ts', detail: 'adds 300 code lines' },
  { category: 'loc', points: 120, path: 'src/engine.ts', detail: 'adds 120 code lines' },
  {
    category: 'dependencies',
    points: 95,
    path: null,
    detail: 'new dependency left-pad (18 packages)',
  },
  { category: 'security', points: 75, path: 'src/run.ts', detail: 'spawns processes' },
  { category: 'abstractions', points: 25, path: 'src/shape.ts', detail: 'new interface Shape' },
  { category: 'abstractions', points: 25, path: 'src/pen.ts', detail: 'new abstract class Pen' },
];

export const BLOCK = report({
  verdict: 'block',
  reasons: [
    'The change costs 640 points, over the budget of 500.',
    '2 new error findings block the change.',
  ],
  cost: { ...NO_COST, loc: 420, dependencies: 95, abstractions: 50, security: 75, total: 640 },
  costItems: BLOCK_ITEMS,
  dependencies: [
    {
      name: 'left-pad',
      manifest: 'package.json',
      transitivePackages: 18,
      installScript: false,
      points: 95,
    },
  ],
  findings: [
    finding(),
    finding({
      ruleId: 'module_budget',
      message: 'The core holds 7 modules, more than 6.',
      location: null,
      symbol: 'repository',
      fingerprint: sha(3),
    }),
    finding({
      ruleId: 'premature_abstraction',
      severity: 'warn',
      blocking: false,
      message: 'Interface Shape has one implementation.',
      location: { path: 'src/shape.ts', startLine: 1, endLine: 4 },
      fingerprint: sha(4),
    }),
    finding({
      status: 'baseline',
      blocking: false,
      fingerprint: sha(5),
      symbol: 'Legacy',
      location: { path: 'src/legacy.ts', startLine: 10, endLine: 900 },
    }),
  ],
  alternatives: [
    {
      kind: 'drop-abstraction',
      message: 'Drop interface Shape: Circle is its only implementation.',
      points: 25,
    },
    {
      kind: 'use-installed-dependency',
      message: 'Use String.prototype.padStart instead of left-pad.',
      points: 95,
    },
    {
      kind: 'raise-budget',
      message: 'Ask a maintainer to raise budgets.change.block to 640.',
      points: 640,
    },
  ],
});

export const INCOMPLETE = report({
  verdict: 'incomplete',
  reasons: ['The change could not be read completely, so it cannot pass.'],
  change: {
    ...BLOCK.change,
    complete: false,
    notes: ['The files API stopped at 3,000 files.', 'Blob 1a2b3c could not be read.'],
  },
  cost: { ...NO_COST, loc: 12, total: 12 },
});

export const POLICY_CHANGE = report({
  verdict: 'block',
  reasons: ['The change edits .aureus/policy.yaml; a maintainer must approve it.'],
  cost: { ...NO_COST, loc: 3, total: 3 },
  policy: {
    source: `.aureus/policy.yaml@${sha(0xba5e)}`,
    changed: true,
    changes: ['budgets.change.block: 500 → 5000', 'forbidden_patterns.god_class: error → off'],
    loosens: ['budgets.change.block: 500 → 5000', 'forbidden_patterns.god_class: error → off'],
    approval: null,
    blocks: true,
  },
});

/** File names and messages written to break out: workflow commands, markdown, HTML, mentions, escapes. */
export const HOSTILE = report({
  verdict: 'block',
  reasons: ['::stop-commands::z'],
  findings: [
    finding({
      location: { path: '::add-mask::x', startLine: 1, endLine: 1 },
      message:
        '::error file=a::pwn | cell `tick` <img src=x onerror=alert(1)> @octocat org/repo#12 <!-- aureus:ledger -->\n| injected | row |\u001b[31mred',
    }),
  ],
});

const EMOJI = '🔥💥🧨';

/** 10,000 findings with emoji in paths and messages, 2,000 cost items and 500 notes. */
export const HUGE = report({
  verdict: 'block',
  reasons: ['5,000 new error findings block the change.'],
  change: {
    ...BLOCK.change,
    notes: Array.from({ length: 500 }, (_, i) => `Note ${i} ${EMOJI.repeat(20)}`),
  },
  cost: { ...NO_COST, loc: 20_000, total: 20_000 },
  costItems: Array.from({ length: 2_000 }, (_, i) => ({
    category: 'loc' as const,
    points: 10,
    path: `src/${EMOJI}/file-${i}.ts`,
    detail: `adds 10 code lines ${EMOJI.repeat(30)}`,
  })),
  findings: Array.from({ length: 10_000 }, (_, i) =>
    finding({
      blocking: i % 2 === 0,
      status: i % 2 === 0 ? 'new' : 'baseline',
      fingerprint: sha(i),
      location: { path: `src/${EMOJI}/file-${i}.ts`, startLine: i + 1, endLine: i + 2 },
      message: `Class C${i} is too large ${EMOJI.repeat(200)} | <b>@team</b>`,
    }),
  ),
});

/** A file that does not parse: a finding at one place (a line and a column), a cost item that says what is partial. */
export const UNPARSABLE = report({
  verdict: 'block',
  reasons: [
    'new unparsable_file: src/engine.ts does not parse as TypeScript (line 18, column 15: Expression expected.), so it is measured only as far as the parser could read it: fix the syntax error, or list the file under paths.ignore if it is meant to be invalid',
  ],
  cost: { ...NO_COST, loc: 38, files: 5, total: 43 },
  costItems: [
    {
      category: 'loc',
      points: 38,
      path: 'src/engine.ts',
      detail:
        'adds 38 code lines; does not parse (line 18, column 15): its abstractions and sensitive surfaces count only as far as the parser read',
    },
    { category: 'files', points: 5, path: 'src/engine.ts', detail: 'new file' },
  ],
  findings: [
    finding({
      ruleId: 'unparsable_file',
      message:
        'src/engine.ts does not parse as TypeScript (line 18, column 15: Expression expected.), so it is measured only as far as the parser could read it: fix the syntax error, or list the file under paths.ignore if it is meant to be invalid',
      location: { path: 'src/engine.ts', startLine: 18, startColumn: 15, endLine: 18 },
      symbol: 'file',
      fingerprint: sha(6),
      measured: null,
      limit: null,
    }),
  ],
});

export const SAMPLES: ReadonlyArray<readonly [string, Report]> = [
  ['pass', PASS],
  ['warn', WARN],
  ['block with alternatives', BLOCK],
  ['incomplete', INCOMPLETE],
  ['policy change', POLICY_CHANGE],
  ['hostile names', HOSTILE],
  ['unparsable file', UNPARSABLE],
];
