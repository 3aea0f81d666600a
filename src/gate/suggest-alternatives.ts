import { detectLanguage } from '../analysis/detect-language.js';
import { folderOf } from '../analysis/repository-paths.js';
import type { CostBreakdown, PricedChange } from '../model/cost.js';
import type { FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import type { Alternative, ReportFinding } from '../model/report.js';
import { globMatcher } from '../policy/glob-matcher.js';

export interface AlternativesInput {
  readonly priced: PricedChange;
  readonly findings: readonly ReportFinding[];
  readonly policy: Policy;
  /** Facts of the head versions of the changed files. */
  readonly headFacts: ReadonlyMap<string, FileFacts>;
  /** Paths the change adds. */
  readonly addedPaths: readonly string[];
  /** Direct dependencies declared at the base. */
  readonly installedDependencies: ReadonlySet<string>;
}

/** New files this small could live in a neighbour of the same folder instead. */
const SMALL_FILE_LINES = 40;

/**
 * Cheaper ways to make this change, each concrete for it: which new files could be one, which
 * installed package covers a new dependency, which new abstraction has one implementation,
 * which new class could be plain functions, whether reflexion is due, and the budget increase
 * needed when over it.
 */
export function suggestAlternatives(input: AlternativesInput): Alternative[] {
  return [
    ...mergeSmallFiles(input),
    ...reuseInstalled(input),
    ...dropAbstractions(input),
    ...classesToFunctions(input),
    ...simplify(input),
    ...splitChange(input),
    ...raiseBudget(input),
  ];
}

function mergeSmallFiles({ addedPaths, headFacts, policy }: AlternativesInput): Alternative[] {
  // Tests and generated files are priced lightly and laid out by their tools: not worth merging.
  const exempt = globMatcher([...policy.paths.tests, ...policy.paths.generated]);
  const byFolder = new Map<string, string[]>();
  for (const path of addedPaths) {
    if (exempt(path)) continue;
    const facts = headFacts.get(path);
    if (facts === undefined || facts.loc > SMALL_FILE_LINES) continue;
    const folder = folderOf(path);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), path]);
  }
  return [...byFolder.values()]
    .filter((paths) => paths.length > 1)
    .map((paths) => ({
      kind: 'merge-files' as const,
      message: `merge the new files ${paths.join(', ')} (each under ${SMALL_FILE_LINES} code lines) into one`,
      points: (paths.length - 1) * policy.pricing.file,
    }));
}

function reuseInstalled({ priced, installedDependencies }: AlternativesInput): Alternative[] {
  return priced.dependencies.flatMap((dependency) => {
    const instead = installedAlternative(dependency.name, installedDependencies);
    if (instead === undefined) return [];
    return [
      {
        kind: 'use-installed-dependency' as const,
        message: `use ${instead} instead of adding ${dependency.name}`,
        points: dependency.points,
      },
    ];
  });
}

function dropAbstractions({ findings, policy }: AlternativesInput): Alternative[] {
  return findings
    .filter(
      (finding) =>
        finding.status === 'new' &&
        (finding.ruleId === 'premature_abstraction' ||
          finding.ruleId === 'single_backend_repository'),
    )
    .map((finding) => ({
      kind: 'drop-abstraction' as const,
      message: `drop ${finding.symbol} and use its implementation directly (${finding.location?.path ?? 'the repository'})`,
      points: policy.pricing.abstraction,
    }));
}

function classesToFunctions({ headFacts, addedPaths }: AlternativesInput): Alternative[] {
  return addedPaths.flatMap((path) =>
    (headFacts.get(path)?.classes ?? [])
      .filter((cls) => cls.staticOnly)
      .map((cls) => ({
        kind: 'class-to-functions' as const,
        message: `turn the static-only class ${cls.name} (${path}:${cls.span.start}) into module functions`,
        points: null,
      })),
  );
}

/** Over budget with several contributions: the biggest ones could land as changes of their own. */
function splitChange({ priced, policy }: AlternativesInput): Alternative[] {
  const over = priced.cost.total - policy.budgets.change.block;
  const largest = [...priced.items]
    .filter((item) => item.points > 0)
    .sort((a, b) => b.points - a.points);
  if (over <= 0 || largest.length < 2) return [];
  const top = largest
    .slice(0, 3)
    .map((item) => `${item.path ?? item.category} (${round(item.points)} points: ${item.detail})`);
  return [
    {
      kind: 'split-change',
      message: `split the change; the largest parts are ${top.join('; ')}`,
      points: round(over),
    },
  ];
}

/**
 * Reflexion's triggers (simplification.triggers) for a change: it adds more than `added_loc`
 * logical lines, as the pricing counts them (net, tests and generated code weighted), or it
 * introduces an abstraction. Why, in words, or undefined when neither holds. The third trigger,
 * the core near its LOC target, is the loc_budget rule's finding.
 */
export function reflexionTrigger(cost: CostBreakdown, policy: Policy): string | undefined {
  const { enabled, triggers } = policy.simplification;
  if (!enabled) return undefined;
  const lines = Math.round(cost.loc / (policy.pricing.loc_added || 1));
  if (lines > triggers.added_loc)
    return `the change adds ${lines} logical lines, more than simplification.triggers.added_loc (${triggers.added_loc})`;
  if (triggers.new_abstraction && cost.abstractions > 0)
    return 'the change introduces an abstraction (simplification.triggers.new_abstraction)';
  return undefined;
}

/** The verified patches of reflexion are the cheaper version of the same change. */
function simplify({ priced, policy }: AlternativesInput): Alternative[] {
  const why = reflexionTrigger(priced.cost, policy);
  if (why === undefined || !patchable(priced, policy)) return [];
  return [
    {
      kind: 'simplify',
      message: `run aureus simplify --changed: ${why}; it offers only patches verified to compile and to lower the price`,
      points: null,
    },
  ];
}

/**
 * Whether the change costs something in code reflexion's passes patch: TypeScript or JavaScript
 * outside tests and generated code, which it leaves alone. Elsewhere (Python, Go, Java) it only
 * points at findings, so suggesting it would send the user to a run with nothing to offer.
 */
function patchable(priced: PricedChange, policy: Policy): boolean {
  const leftAlone = globMatcher([...policy.paths.tests, ...policy.paths.generated]);
  return priced.items.some(({ path, points }) => {
    if (path === null || points <= 0 || leftAlone(path)) return false;
    const language = detectLanguage(path);
    return language === 'typescript' || language === 'tsx' || language === 'javascript';
  });
}

function raiseBudget({ priced, policy }: AlternativesInput): Alternative[] {
  const over = priced.cost.total - policy.budgets.change.block;
  if (over <= 0) return [];
  return [
    {
      kind: 'raise-budget',
      message: `or ask a maintainer to raise budgets.change.block from ${policy.budgets.change.block} to at least ${Math.ceil(priced.cost.total)} (${round(over)} points over)`,
      points: Math.ceil(priced.cost.total),
    },
  ];
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * Packages that do the same job: when a change adds one while another of its group is already
 * a dependency, the gate suggests the installed one. Kept to well-known, interchangeable groups.
 */
const SAME_JOB: readonly (readonly string[])[] = [
  ['axios', 'got', 'node-fetch', 'undici', 'superagent', 'ky', 'request'],
  ['moment', 'dayjs', 'date-fns', 'luxon'],
  ['chalk', 'picocolors', 'kleur', 'colorette', 'ansi-colors'],
  ['commander', 'yargs', 'meow', 'minimist', 'cac', 'sade'],
  ['lodash', 'underscore', 'ramda', 'remeda'],
  ['winston', 'pino', 'bunyan', 'loglevel'],
  ['express', 'koa', 'fastify', 'hapi', '@hapi/hapi'],
  ['jest', 'vitest', 'mocha', 'ava'],
  ['yaml', 'js-yaml'],
  ['ajv', 'joi', 'yup', 'zod', 'valibot'],
  ['uuid', 'nanoid'],
  ['glob', 'fast-glob', 'globby', 'tinyglobby'],
  ['minimatch', 'picomatch', 'micromatch'],
  ['requests', 'httpx', 'urllib3', 'aiohttp'],
];

/** Jobs the runtime already does, for dependencies that only wrap them. */
const BUILT_IN: Readonly<Record<string, string>> = {
  'node-fetch': 'the built-in fetch (Node 18+)',
  axios: 'the built-in fetch (Node 18+)',
  uuid: 'crypto.randomUUID()',
  'left-pad': 'String.prototype.padStart',
  'object-assign': 'Object.assign',
  'array-flatten': 'Array.prototype.flat',
  'is-number': 'Number.isFinite',
  rimraf: 'fs.rm with { recursive: true }',
  mkdirp: 'fs.mkdir with { recursive: true }',
};

/** What already covers a new dependency: an installed package of the same group, or a built-in. */
function installedAlternative(added: string, installed: ReadonlySet<string>): string | undefined {
  const group = SAME_JOB.find((members) => members.includes(added));
  const peer = group?.find((member) => member !== added && installed.has(member));
  if (peer !== undefined) return `${peer} (already a dependency)`;
  return BUILT_IN[added];
}
