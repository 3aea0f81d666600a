import { posix } from 'node:path';
import { detectLanguage } from '../analysis/detect-language.js';
import type { Resolution, ResolveImport } from '../analysis/resolve/resolution.js';
import type { FileFacts } from '../model/facts.js';
import type { PathTest } from '../policy/glob-matcher.js';
import type { CollectedFacts, SourceFile } from './collect-facts.js';
import type { UnreadableFile } from './repository-source.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

/** What Node's CommonJS loader reads as something else than JavaScript. */
const NOT_JAVASCRIPT = /\.(json|node)$/i;

/** The languages whose relative imports Node (or a bundler) loads. */
const JAVASCRIPT_FAMILY = new Set(['javascript', 'typescript', 'tsx']);

/**
 * The files JavaScript or TypeScript code imports or requires by a relative path whose name no
 * language claims (`require('./engine.txt')`, `require('./engine')`): Node's CommonJS loader runs
 * every extension but `.json` and `.node` as JavaScript, so a file named as text or data is the
 * code it is, priced, critiqued and in the graph. It is read as JavaScript when that parser
 * accepts it: a stylesheet or template a bundler imports does not parse and stays what it is.
 * What such a file imports is followed in turn. One over the read limit hides the code it is:
 * the analysis is incomplete.
 */
export async function requiredAsCode(
  first: CollectedFacts,
  snapshot: readonly SnapshotFile[],
  isIgnored: PathTest,
  parse: (files: readonly SourceFile[]) => Promise<CollectedFacts>,
): Promise<{
  readonly collected: CollectedFacts;
  readonly resolve: (r: ResolveImport) => ResolveImport;
}> {
  const unclaimed = new Map(
    snapshot
      .filter(
        (file) =>
          /^100(644|755)$/.test(file.mode) &&
          detectLanguage(file.path) === undefined &&
          !NOT_JAVASCRIPT.test(file.path) &&
          !isIgnored(file.path) &&
          !first.facts.has(file.path),
      )
      .map((file) => [file.path, file]),
  );
  const facts = new Map(first.facts);
  const unreadable: UnreadableFile[] = [];
  let importers = [...first.facts];
  while (unclaimed.size > 0 && importers.length > 0) {
    const reached = new Set(importers.flatMap(([from, fileFacts]) => targetsOf(from, fileFacts)));
    const candidates = [...reached].flatMap((path) => {
      const file = unclaimed.get(path);
      unclaimed.delete(path);
      return file === undefined ? [] : [{ ...file, language: 'javascript' as const }];
    });
    if (candidates.length === 0) break;
    const read = await parse(candidates);
    unreadable.push(
      ...read.unreadable,
      // A binary file (an image a bundler imports) is no JavaScript: its bytes do not decode.
      ...read.skipped
        .filter(({ reason }) => reason !== 'binary')
        .map(({ path, reason }) => ({
          path,
          problem: `code imports it by a relative path, and Node runs a file of any other extension than .json and .node as JavaScript, but it could not be read (${reason}), so the code it may be goes unjudged. To resolve, give the file the extension of the language it is, or keep it under the read limit`,
        })),
    );
    importers = [...read.facts].filter(([, fileFacts]) => fileFacts.diagnostics.length === 0);
    for (const [path, fileFacts] of importers) facts.set(path, fileFacts);
  }
  const claimed = new Set([...facts.keys()].filter((path) => !first.facts.has(path)));
  return {
    collected: { ...first, facts, unreadable: [...first.unreadable, ...unreadable] },
    resolve: (resolve) => (from, specifier) => {
      const answer = resolve(from, specifier);
      if (answer.kind !== 'unresolved' || claimed.size === 0) return answer;
      const target = relativeTarget(from, specifier);
      return target !== undefined && claimed.has(target)
        ? ({ kind: 'file', path: target } satisfies Resolution)
        : answer;
    },
  };
}

function targetsOf(from: string, fileFacts: FileFacts): string[] {
  if (!JAVASCRIPT_FAMILY.has(fileFacts.language)) return [];
  return fileFacts.imports.flatMap(({ specifier, typeOnly }) => {
    const target = typeOnly ? undefined : relativeTarget(from, specifier);
    return target === undefined ? [] : [target];
  });
}

/** The repository path a relative specifier names, or undefined (a package, or out of the tree). */
function relativeTarget(from: string, specifier: string): string | undefined {
  if (!/^\.\.?\//.test(specifier)) return undefined;
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  return target.startsWith('../') ? undefined : target;
}
