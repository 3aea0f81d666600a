import { groupModules } from '../analysis/graph/policy-modules.js';
import { baseName } from '../analysis/repository-paths.js';
import type { Policy } from '../model/policy.js';
import { globMatcher } from '../policy/glob-matcher.js';
import type { Workspaces } from './manifests/read-project-manifests.js';
import type { CoreLayout, Inferred } from './project-intelligence.js';
import type { SurveyFile } from './project-survey.js';
import { count, listed, percent } from './wording.js';

/**
 * Top-level folders that hold code the project does not ship: documentation, examples,
 * scripts, benchmarks, fixtures, vendored code. Their code is real, but budgeting it as the core
 * would let a growing examples folder block the product's changes.
 */
const NOT_CORE =
  /^(\.[^/]*|docs?|examples?|samples?|demos?|scripts?|tools|bench|benchmarks?|fixtures|vendor|third_party|website|site|e2e|types|typings)$/;

/** Root files that configure tools (eslint.config.js, .prettierrc.cjs, setup.py, conftest.py). */
export const CONFIG_FILE =
  /(^\.|\.config\.[cm]?[jt]s$|rc\.[cm]?js$|^(setup|conftest|noxfile|manage)\.py$)/;

/**
 * A folder holding this share of the product code is the core on its own; the scattered rest
 * (a root `index.js` re-export, a `bin/` shim) is glue, not architecture.
 */
const DOMINANT_SHARE = 0.8;

/** The product source files: analysed languages, not tests, not generated code. */
export function productFiles(files: readonly SurveyFile[], paths: Policy['paths']): SurveyFile[] {
  const isTest = globMatcher(paths.tests);
  const isGenerated = globMatcher(paths.generated);
  return files.filter(
    (file) => file.language !== null && !isTest(file.path) && !isGenerated(file.path),
  );
}

/**
 * The `paths.core` globs and the core they take in: a monorepo's workspace packages; else the
 * folder that holds most of the product code; else every top-level folder that holds some.
 */
export function detectCore(
  files: readonly SurveyFile[],
  workspaces: Workspaces | null,
  paths: Policy['paths'],
): Inferred<CoreLayout> {
  const product = productFiles(files, paths);
  const chosen = chooseGlobs(product, workspaces, paths.core);
  const inCore = globMatcher(chosen.globs);
  const core = product.filter((file) => inCore(file.path));
  const modules = groupModules(
    core.map((file) => file.path),
    chosen.globs,
  ).modules;
  const loc = core.reduce((sum, file) => sum + (file.codeLines ?? 0), 0);
  return {
    value: { globs: chosen.globs, files: core.length, loc, modules },
    reason: chosen.reason,
  };
}

function chooseGlobs(
  product: readonly SurveyFile[],
  workspaces: Workspaces | null,
  defaults: readonly string[],
): { globs: string[]; reason: string } {
  if (workspaces !== null && workspaces.members.length > 0) {
    const globs = workspaces.patterns.map((pattern) =>
      pattern.endsWith('**') ? pattern : `${pattern}/**`,
    );
    const matches = globMatcher(globs);
    if (product.some((file) => matches(file.path))) {
      return {
        globs,
        reason: `the workspace packages (${workspaces.patterns.join(', ')}), each package a module`,
      };
    }
  }
  const byFolder = new Map<string, number>();
  let lines = 0;
  for (const file of product) {
    const slash = file.path.indexOf('/');
    const folder = slash === -1 ? '' : file.path.slice(0, slash);
    if (folder === '' ? CONFIG_FILE.test(baseName(file.path)) : NOT_CORE.test(folder)) continue;
    // An empty file still counts, so a folder of stubs is not invisible.
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + Math.max(file.codeLines ?? 0, 1));
    lines += file.codeLines ?? 0;
  }
  const total = [...byFolder.values()].reduce((sum, lines) => sum + lines, 0);
  const ranked = [...byFolder].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  const [top] = ranked;
  if (top === undefined) {
    return { globs: [...defaults], reason: 'no product source code yet: the design default' };
  }
  const where = ([folder, lines]: [string, number]) =>
    `${folder === '' ? 'the root' : `${folder}/`} (${percent(lines / total)})`;
  if (top[0] !== '' && top[1] / total >= DOMINANT_SHARE) {
    return {
      globs: [`${top[0]}/**`],
      reason: `${top[0]}/ holds ${percent(top[1] / total)} of the ${count(lines)} lines of product code outside tests, docs, examples and scripts`,
    };
  }
  const globs = ranked.flatMap(([folder]) =>
    folder === '' ? rootGlobs(product) : [`${folder}/**`],
  );
  return { globs, reason: `the product code spreads over ${listed(ranked.map(where), 5)}` };
}

/** The root's own source files, one glob per extension (`*.js`): module `.` of the core. */
function rootGlobs(product: readonly SurveyFile[]): string[] {
  const extensions = product
    .filter((file) => !file.path.includes('/') && !CONFIG_FILE.test(file.path))
    .map((file) => file.path.slice(file.path.lastIndexOf('.')));
  return [...new Set(extensions)].sort().map((extension) => `*${extension}`);
}
