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

/**
 * The base side of a check on a commit: kept from an earlier check on the same base under the
 * same policy (a hook on every commit, `aureus check` re-run), else analysed and kept. A kept
 * side lacking a fact its change needs (a facts cache emptied since) is analysed again.
 */
export async function keptBaseSide(
  cacheDir: string | undefined,
  inputs: BaseSideInputs & { readonly policy: Policy },
  change: Change,
  factsCache: FactsCache,
  analyze: () => Promise<RepositoryAnalysis>,
): Promise<BaseSide> {
  const cache = baseSideCache(cacheDir);
  const kept = await cache?.read(inputs);
  const facts =
    kept === undefined ? undefined : await changedFacts(kept.factFiles, inputs, change, factsCache);
  if (kept !== undefined && facts !== undefined)
    return { ...kept, facts, shippedTests: new Set(kept.shippedTests) };
  return keepBaseSide(cacheDir, inputs, await analyze());
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
  const side = baseSideOf(analysis, inputs.policy);
  // A side missing a file is judged incomplete: it is worked out again rather than kept.
  if (side.unreadable.length > 0) return side;
  await baseSideCache(cacheDir)?.write(inputs, {
    factFiles: [...side.facts].map(([path, fileFacts]) => [path, fileFacts.language] as const),
    modules: side.modules,
    findings: side.findings,
    unreadable: side.unreadable,
    unreadImports: side.unreadImports,
    shippedTests: [...side.shippedTests],
  });
  return side;
}

/** The base facts of the files the change touches, or undefined when one is not cached. */
async function changedFacts(
  factFiles: KeptBaseSide['factFiles'],
  inputs: BaseSideInputs,
  change: Change,
  factsCache: FactsCache,
): Promise<Map<string, FileFacts> | undefined> {
  const languages = new Map(factFiles);
  const blobs = new Map(inputs.files.map((file) => [file.path, file.blobSha]));
  const keys = change.files.flatMap((file) => {
    const path = file.base?.path;
    const language = path === undefined ? undefined : languages.get(path);
    const blobSha = path === undefined ? undefined : blobs.get(path);
    return path === undefined || language === undefined || blobSha === undefined
      ? []
      : [{ path, blobSha, language }];
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
