import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION_FOLDER } from '../../src/memory/facts-cache-folders.js';
import { encodeEntry, entryKey } from '../../src/memory/facts-cache-format.js';
import type { FileFacts } from '../../src/model/facts.js';
import type { Policy } from '../../src/model/policy.js';
import { createFactParser } from '../../src/scan/fact-parsers.js';

/**
 * What a pull request can commit to pass itself off as AUREUS's memory: cache entries in the
 * layout AUREUS writes them, with their checksums recomputed (they are plain SHA-256s), at the
 * places a checkout could reach — `.aureus/local/cache/`, where caches used to live, and
 * `.cache/aureus/`, the user's cache folder as it would be if the repository were the home
 * folder (XDG_CACHE_HOME inside the checkout).
 */
export const CHECKOUT_CACHE_ROOTS = ['.aureus/local/cache', '.cache/aureus'] as const;

/** Facts claimed for a blob. */
export interface ForgedFacts {
  readonly blobSha: string;
  readonly facts: FileFacts;
}

/** What TypeScript's parser makes of a TypeScript text: the real facts of another file, to plant. */
export async function typeScriptFacts(text: string): Promise<FileFacts> {
  const parse = await createFactParser('typescript', 0);
  return parse('typescript', text);
}

/** Files (path → text) planting `entries` under `root`: each as a loose entry, and all in a pack. */
export function forgedFactsFiles(
  root: string,
  entries: readonly ForgedFacts[],
): Record<string, string> {
  const folder = `${root}/facts/${VERSION_FOLDER}`;
  const files: Record<string, string> = {};
  const lines: string[] = [];
  for (const { blobSha, facts } of entries) {
    const key = entryKey(blobSha, 'typescript');
    const line = encodeEntry(key, facts);
    files[`${folder}/${blobSha.slice(0, 2)}/${key}.json`] = `${line}\n`;
    lines.push(line);
  }
  files[`${folder}/packs/0-forged.jsonl`] = `${lines.join('\n')}\n`;
  return files;
}

/** A parsed-policy entry for the policy blob `key`, its checksum recomputed. */
export function forgedPolicyFile(
  root: string,
  key: string,
  buildId: string,
  policy: Policy,
): Record<string, string> {
  const text = JSON.stringify(policy);
  const checksum = createHash('sha256').update(text).digest('hex');
  return {
    [`${root}/policies/${key}-${buildId}.json`]: `{"checksum":"${checksum}","policy":${text}}\n`,
  };
}

/** Folders outside the repository that committed links point at; each must stay empty. */
export function linkTargets(parent: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => {
    const target = join(parent, `link-target-${index}`);
    mkdirSync(target, { recursive: true });
    return target;
  });
}

/** Every file and folder under `folder`, for an assertion that nothing was written there. */
export function contentsOf(folder: string): string[] {
  return readdirSync(folder, { recursive: true }).map(String).sort();
}
