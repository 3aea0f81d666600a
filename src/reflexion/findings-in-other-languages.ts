import type { FileFacts, FunctionFact, Language } from '../model/facts.js';
import type { PassName } from './proposal.js';

/** A simplification reflexion sees but does not write: where it is and what to do. */
export interface SimplificationFinding {
  readonly pass: PassName;
  readonly title: string;
  readonly path: string;
  readonly line: number;
}

/** The languages reflexion has no patches for yet. */
const OTHER_LANGUAGES: ReadonlySet<Language> = new Set(['python', 'go']);

/**
 * The passes' opportunities in Python and Go, found from the facts alone and reported with
 * their location, no patch: a module-private function of one statement called once in its
 * language's files (inline it), and a Python class of static members only (module functions).
 * The facts see calls inside functions only, and no reference that is not a call (a function
 * passed as a value): these are findings for a person to check, never patches. A function
 * whose name another call in the language also names, a recursive one and methods are left
 * alone. Java is left out: its static-only
 * classes are the language's way to hold functions, and method visibility is not in the facts.
 * Single-implementation abstractions are the critic's `premature_abstraction` finding, in
 * every language.
 */
export function findingsInOtherLanguages(
  facts: ReadonlyMap<string, FileFacts>,
  scope: ReadonlySet<string>,
): SimplificationFinding[] {
  const callCounts = callsByLanguage(facts);
  const findings: SimplificationFinding[] = [];
  for (const [path, file] of facts) {
    if (!scope.has(path) || !OTHER_LANGUAGES.has(file.language)) continue;
    const calls = callCounts.get(file.language) ?? new Map<string, number>();
    for (const fn of file.functions)
      if (isTrivialPrivate(fn, file.language) && calls.get(fn.name) === 1)
        findings.push({
          pass: 'inline-trivial-function',
          title: `Inline \`${fn.name}\`, a one-statement function called once`,
          path,
          line: fn.span.start,
        });
    if (file.language === 'python')
      for (const cls of file.classes)
        if (cls.staticOnly && cls.extends === null)
          findings.push({
            pass: 'static-only-class',
            title: `Turn static-only class \`${cls.name}\` into module functions`,
            path,
            line: cls.span.start,
          });
  }
  return findings.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}

/** How many calls name each callee, per language, over every file. */
function callsByLanguage(
  facts: ReadonlyMap<string, FileFacts>,
): Map<Language, Map<string, number>> {
  const byLanguage = new Map<Language, Map<string, number>>();
  for (const file of facts.values()) {
    const counts = byLanguage.get(file.language) ?? new Map<string, number>();
    byLanguage.set(file.language, counts);
    for (const fn of file.functions)
      for (const callee of fn.calls) counts.set(callee, (counts.get(callee) ?? 0) + 1);
  }
  return byLanguage;
}

/**
 * A module-level function, private by the language's rule (Python's leading underscore, Go's
 * lower-case name), with no branch, no call to itself, and one statement: `def` plus one line
 * in Python, the braces plus one line in Go.
 */
function isTrivialPrivate(fn: FunctionFact, language: Language): boolean {
  if (fn.kind !== 'function' || fn.complexity !== 1 || fn.calls.includes(fn.name)) return false;
  if (language === 'python') return /^_[^_]/.test(fn.name) && fn.loc <= 2;
  return /^[a-z]/.test(fn.name) && fn.name !== 'main' && fn.name !== 'init' && fn.loc <= 3;
}
