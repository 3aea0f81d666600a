import type { Change } from '../model/change.js';
import type { FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import { globMatcher } from '../policy/glob-matcher.js';

/**
 * The head paths the change touches that are named as generated code (paths.generated) and
 * were not generated code at the base: added, copied, or without their generator's mark there.
 * A generator's mark is a comment anyone can write: on such a file it buys nothing (it is
 * priced and critiqued as the code it is); a file regenerated over a generated base stays free.
 * Empty for nearly every change, which then is judged and kept exactly as before.
 */
export function markedOnlyAtHead(
  change: Change,
  policy: Policy,
  baseFacts: ReadonlyMap<string, FileFacts>,
): ReadonlySet<string> {
  const named = globMatcher(policy.paths.generated);
  const paths = change.files.flatMap(({ head, base, status }) => {
    if (head === undefined || !named(head.path)) return [];
    const wasMarked =
      base !== undefined && status !== 'copied' && named(base.path)
        ? baseFacts.get(base.path)?.generatorMarked === true
        : false;
    return wasMarked ? [] : [head.path];
  });
  return new Set(paths);
}

/** The head paths of the change named as generated code: those markedOnlyAtHead may return. */
export function namedGeneratedAtHead(change: Change, policy: Policy): boolean {
  const named = globMatcher(policy.paths.generated);
  return change.files.some(({ head }) => head !== undefined && named(head.path));
}

/** `facts` with the generator's mark of `paths` taken for what it is: written at this change. */
export function withNewMarks(
  facts: ReadonlyMap<string, FileFacts>,
  paths: ReadonlySet<string>,
): ReadonlyMap<string, FileFacts> {
  if (paths.size === 0) return facts;
  const marked = [...paths].filter((path) => facts.get(path)?.generatorMarked === true);
  if (marked.length === 0) return facts;
  const copy = new Map(facts);
  for (const path of marked) {
    const fileFacts = copy.get(path);
    if (fileFacts !== undefined) copy.set(path, { ...fileFacts, generatorMarked: 'new' });
  }
  return copy;
}
