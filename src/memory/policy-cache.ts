import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Policy } from '../model/policy.js';
import { writeFileAtomic } from './atomic-write.js';
import { ensureLocalDir, storePaths } from './store-paths.js';

/**
 * Set by the CLI bundler (scripts/build-cli.mjs) to a hash of everything that decides how a
 * policy file parses (the schema, the policy code, AUREUS's version). Absent when the sources
 * run unbundled (tests, the library): then nothing is cached, so a cache can never outlive the
 * code that filled it.
 */
declare const AUREUS_POLICY_BUILD_ID: string | undefined;

/**
 * Parsed policies by the git blob id of their file. A pre-commit hook judges by the policy of
 * HEAD, which rarely changes: reading its parse back skips loading the YAML parser and the
 * schema validator, about a tenth of the hook's time. An entry carries a checksum of its
 * policy; one that does not verify is ignored and parsed again, never trusted.
 */
function cacheFile(root: string, key: string): string | undefined {
  if (typeof AUREUS_POLICY_BUILD_ID !== 'string') return undefined;
  return join(
    storePaths(root).localDir,
    'cache',
    'policies',
    `${key}-${AUREUS_POLICY_BUILD_ID}.json`,
  );
}

export async function readCachedPolicy(root: string, key: string): Promise<Policy | undefined> {
  const file = cacheFile(root, key);
  if (file === undefined) return undefined;
  try {
    const stored: unknown = JSON.parse(await readFile(file, 'utf8'));
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

export async function writeCachedPolicy(root: string, key: string, policy: Policy): Promise<void> {
  const file = cacheFile(root, key);
  if (file === undefined) return;
  const text = JSON.stringify(policy);
  try {
    await ensureLocalDir(root);
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomic(file, `{"checksum":"${checksum(text)}","policy":${text}}\n`);
  } catch {
    // A cache that cannot be written (read-only checkout) only costs the next run a parse.
  }
}

function checksum(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
