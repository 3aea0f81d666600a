import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Policy } from '../model/policy.js';
import { writeCacheFile } from './atomic-write.js';
import { privateFolders, readCacheFile } from './cache-files.js';

/**
 * Set by the CLI bundler (scripts/build-cli.mjs) to a hash of everything that decides how a
 * policy file parses (the schema, the policy code, AUREUS's version). Absent when the sources
 * run unbundled (tests, the library): then nothing is cached, so a cache can never outlive the
 * code that filled it.
 */
declare const AUREUS_POLICY_BUILD_ID: string | undefined;

/**
 * Parsed policies by the git blob id of their file (or a hash of its bytes), in AUREUS's cache
 * folder under `policies/`: keyed by content, so shared by every repository. A pre-commit hook
 * judges by the policy of HEAD, which rarely changes: reading its parse back skips loading the
 * YAML parser and the schema validator, about a tenth of the hook's time. An entry carries a
 * checksum of its policy; one that does not verify, or that is not a file of this user alone,
 * is ignored and parsed again, never trusted. Without a folder (caching off) nothing is kept.
 */
async function cacheFile(cacheDir: string | undefined, key: string): Promise<string | undefined> {
  if (typeof AUREUS_POLICY_BUILD_ID !== 'string' || cacheDir === undefined) return undefined;
  const folder = await privateFolders(cacheDir)('policies');
  return join(folder, `${key}-${AUREUS_POLICY_BUILD_ID}.json`);
}

export async function readCachedPolicy(
  cacheDir: string | undefined,
  key: string,
): Promise<Policy | undefined> {
  try {
    const file = await cacheFile(cacheDir, key);
    const found = file === undefined ? undefined : await readCacheFile(file);
    if (found?.kind !== 'text') return undefined;
    const stored: unknown = JSON.parse(found.text);
    if (typeof stored !== 'object' || stored === null) return undefined;
    if (!('policy' in stored) || !('checksum' in stored)) return undefined;
    const policy: unknown = stored.policy;
    if (stored.checksum !== checksum(JSON.stringify(policy))) return undefined;
    // The checksum proves these are the bytes writeCachedPolicy wrote from a validated Policy.
    return policy as Policy;
  } catch {
    return undefined;
  }
}

export async function writeCachedPolicy(
  cacheDir: string | undefined,
  key: string,
  policy: Policy,
): Promise<void> {
  const text = JSON.stringify(policy);
  try {
    const file = await cacheFile(cacheDir, key);
    if (file !== undefined)
      await writeCacheFile(file, `{"checksum":"${checksum(text)}","policy":${text}}\n`);
  } catch {
    // A cache that cannot be written only costs the next run a parse.
  }
}

function checksum(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
