import picomatch from 'picomatch';
import type { Policy } from '../model/policy.js';
import { describe, displayPath, valueAt } from './explain-schema-violations.js';
import type { YamlLocator } from './locate-in-yaml.js';
import type { PolicyProblem } from './policy-problem.js';
import { policySchema } from './policy-schema.generated.js';
import type { SchemaNode } from './schema-node.js';

export type PathTest = (path: string) => boolean;

const MATCH_OPTIONS = { dot: true } as const;

/**
 * Whether a repository path matches any of the policy's globs (paths.core, ignore, tests,
 * generated, adapter globs). `dot: true` everywhere in AUREUS: dot-folders are tracked code
 * like any other. No globs match nothing.
 */
export function globMatcher(globs: readonly string[]): PathTest {
  if (globs.length === 0) return () => false;
  const matches = compiled(globs);
  // Rules and pricing ask about the same few hundred paths over and over: one regex run each.
  const answers = new Map<string, boolean>();
  return (path) => {
    let answer = answers.get(path);
    if (answer === undefined) {
      answer = matches(path);
      answers.set(path, answer);
    }
    return answer;
  };
}

/**
 * The policy's few glob lists compiled once: the builder's critic analyses the tree at every
 * action, and compiling them again each time cost more than matching. A few lists are kept,
 * never more, since the App sees many policies.
 */
const compiledLists = new Map<string, picomatch.Matcher>();
const KEPT_LISTS = 32;

function compiled(globs: readonly string[]): picomatch.Matcher {
  const key = globs.join('\u0000');
  let matches = compiledLists.get(key);
  if (matches === undefined) {
    matches = picomatch([...globs], MATCH_OPTIONS);
    compiledLists.set(key, matches);
    for (const old of [...compiledLists.keys()].slice(0, -KEPT_LISTS)) compiledLists.delete(old);
  }
  return matches;
}

/**
 * Why picomatch cannot compile `glob` as written, in its own words, or undefined when it can.
 * Left to itself picomatch fails open: an unclosed `[` or `(` turns into a literal character
 * and an unclosed `{` or a backwards range `[z-a]` into a pattern that matches nothing, so a
 * policy glob would silently match no file. `strictBrackets` makes it refuse unbalanced
 * brackets, braces and parentheses, and `debug` makes it throw the regular expression's error
 * instead of returning a pattern that matches nothing.
 */
function globSyntaxError(glob: string): string | undefined {
  try {
    picomatch.makeRe(glob, { ...MATCH_OPTIONS, strictBrackets: true, debug: true });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

type Explanation = Pick<PolicyProblem, 'message' | 'hint'>;

/** Every list of globs the schema declares (paths.*, adapter_globs, protected_paths, …). */
const GLOB_SETTINGS = globSettings(policySchema, []);

/** The pair of each bracket picomatch reports unbalanced, and a glob that closes it right. */
const BRACKETS: Readonly<Record<string, { open: string; close: string; example: string }>> = {
  '[': { open: '[', close: ']', example: 'src/[a-z]/**' },
  ']': { open: '[', close: ']', example: 'src/[a-z]/**' },
  '{': { open: '{', close: '}', example: '{dist,build}/**' },
  '}': { open: '{', close: '}', example: '{dist,build}/**' },
  '(': { open: '(', close: ')', example: '*.@(ts|js)' },
  ')': { open: '(', close: ')', example: '*.@(ts|js)' },
};

/**
 * Globs of the policy that picomatch cannot compile as written, each at its place. Without
 * this check such a glob fails open: it matches no file (or only a file named after its
 * typo), so a core, an ignore list or a protected path would silently cover nothing.
 */
export function globProblems(policy: Policy, locate: YamlLocator, file: string): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  // Module names are the policy's own, so their globs are listed from the policy itself.
  const modulePaths = Object.keys(policy.modules).map((name) => ['modules', name, 'paths']);
  for (const path of [...GLOB_SETTINGS, ...modulePaths]) {
    // Defaults are AUREUS's own globs, known to compile (its round-trip test parses them all).
    if (!locate.has(path)) continue;
    const globs = valueAt(policy, path);
    if (!Array.isArray(globs)) continue;
    globs.forEach((glob: unknown, index) => {
      if (typeof glob !== 'string') return;
      const itemPath = [...path, String(index)];
      const name = displayPath(itemPath);
      const error = globSyntaxError(glob);
      const explanation = isNegated(glob)
        ? explainNegated(name, glob)
        : error === undefined
          ? undefined
          : explain(name, glob, error);
      if (explanation === undefined) return;
      const { line, column } = locate.valueAt(itemPath);
      problems.push({ file, line, column, ...explanation });
    });
  }
  return problems;
}

/**
 * A leading `!` (not an extglob's `!(…)`) makes picomatch match every path the rest does NOT
 * match, and a list matches a file when any of its globs does: `[dist/**, "!dist/keep/**"]`
 * meant as "dist except keep" ignores every file of the repository, and fails the gate open.
 */
function isNegated(glob: string): boolean {
  return /^!(?!\()/.test(glob);
}

function explainNegated(name: string, glob: string): Explanation {
  const rest = glob.replace(/^!+/, '');
  return {
    message: `${name} is a negated glob: ${describe(glob)} matches every file outside ${describe(rest)}, since a file is matched when any glob of the list matches it; globs here cannot exclude files.`,
    hint: 'list only the files to match (for example dist/**), or exclude a folder inside one glob with an extglob (for example dist/!(keep)/**).',
  };
}

function explain(name: string, glob: string, error: string): Explanation {
  const invalid = `${name} is not a valid glob: ${describe(glob)}`;
  const missing = /^Missing (opening|closing): "(.)"/.exec(error);
  const pair = BRACKETS[missing?.[2] ?? ''];
  if (missing !== null && pair !== undefined) {
    const { open, close, example } = pair;
    return missing[1] === 'closing'
      ? {
          message: `${invalid} opens a "${open}" that is never closed.`,
          hint: `close it (for example ${example}), or write [${open}] to match a literal "${open}".`,
        }
      : {
          message: `${invalid} closes a "${close}" that was never opened.`,
          hint: `remove it, or write [${close}] to match a literal "${close}".`,
        };
  }
  const reason = (error.split(': ').at(-1) ?? error).replace(/^./, (c) => c.toLowerCase());
  return {
    message: `${invalid} cannot be compiled (${reason}).`,
    hint: 'write ranges from low to high (for example [a-z]) and check its brackets and braces.',
  };
}

function globSettings(node: SchemaNode, path: readonly string[]): string[][] {
  return Object.entries(node.properties ?? {}).flatMap(([name, child]) => {
    const here = [...path, name];
    const own = child.items?.$ref === '#/definitions/glob' ? [here] : [];
    return [...own, ...globSettings(child, here)];
  });
}
