import {
  type BaseSideInputs,
  baseSideCache,
  type KeptBaseSide,
} from '../memory/base-side-cache.js';
import type { FactsCache } from '../memory/facts-cache.js';
import type { Change } from '../model/change.js';
import type { FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import type { RepositoryAnalysis } from '../scan/analyze-snapshot.js';
import { type BaseSide, baseSideOf } from './base-side.js';
import { withNewMarks } from './generated-at-base.js';

/**
 * The side of a check on a snapshot, with the facts of `touched` (the paths the change touches
 * there): kept from an earlier check on the same files under the same policy (a hook on every
 * commit, `aureus check` re-run), else analysed and kept. A kept side lacking a fact its change
 * needs (a facts cache emptied since) is analysed again.
 */
export async function keptBaseSide(
  cacheDir: string | undefined,
  inputs: BaseSideInputs & { readonly policy: Policy },
  touched: readonly string[],
  factsCache: FactsCache,
  analyze: () => Promise<RepositoryAnalysis>,
): Promise<BaseSide> {
  const kept = await keptSide(cacheDir, inputs, touched, factsCache);
  return kept ?? keepBaseSide(cacheDir, inputs, await analyze());
}

/**
 * A side kept from an earlier check on the very same files under the same policy, with the
 * facts of `touched` (the change's paths on that side) from the facts cache; undefined when
 * none is kept or a fact is missing, and the caller analyses.
 */
export async function keptSide(
  cacheDir: string | undefined,
  inputs: BaseSideInputs & { readonly policy: Policy },
  touched: readonly string[],
  factsCache: FactsCache,
): Promise<BaseSide | undefined> {
  const kept = await baseSideCache(cacheDir)?.read(inputs);
  if (kept === undefined) return undefined;
  const facts = await touchedFacts(kept.factFiles, inputs, touched, factsCache);
  if (facts === undefined) return undefined;
  const marks = withNewMarks(facts, new Set(inputs.newMarks));
  return { ...kept, facts: marks, shippedTests: new Set(kept.shippedTests) };
}

/** The paths a change touches on one side: where it reads the facts it prices. */
export function touchedPaths(change: Change, side: 'base' | 'head'): string[] {
  return change.files.flatMap((file) => {
    const path = file[side]?.path;
    return path === undefined ? [] : [path];
  });
}

/**
 * The base side of `analysis`, kept for the checks to come on the same files. A staged change
 * keeps its head too: once committed it is the base of the next commit's hook.
 */
export async function keepBaseSide(
  cacheDir: string | undefined,
  inputs: BaseSideInputs & { readonly policy: Policy },
  analysis: RepositoryAnalysis,
): Promise<BaseSide> {
  const side = baseSideOf(analysis, inputs.policy, new Set(inputs.newMarks));
  // A side missing a file is judged incomplete: it is worked out again rather than kept.
  if (side.unreadable.length > 0) return side;
  await baseSideCache(cacheDir)?.write(inputs, {
    factFiles: [...side.facts].map(([path, fileFacts]) => [path, fileFacts.language] as const),
    modules: side.modules,
    findings: side.findings,
    unreadable: side.unreadable,
    unreadImports: side.unreadImports,
    shippedTests: [...side.shippedTests],
    core: side.core,
  });
  return side;
}

/** The facts of the files a change touches on one side, or undefined when one is not cached. */
async function touchedFacts(
  factFiles: KeptBaseSide['factFiles'],
  inputs: BaseSideInputs,
  touched: readonly string[],
  factsCache: FactsCache,
): Promise<Map<string, FileFacts> | undefined> {
  const languages = new Map(factFiles);
  const blobs = new Map(inputs.files.map((file) => [file.path, file.blobSha]));
  const keys = touched.flatMap((path) => {
    const language = languages.get(path);
    const blobSha = blobs.get(path);
    return language === undefined || blobSha === undefined ? [] : [{ path, blobSha, language }];
  });
  const found = await factsCache.getMany(keys);
  const facts = new Map<string, FileFacts>();
  for (const [index, { path }] of keys.entries()) {
    const fileFacts = found[index];
    if (fileFacts === undefined) return undefined;
    facts.set(path, fileFacts);
  }
  return facts;
}
