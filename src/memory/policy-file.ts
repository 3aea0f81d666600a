import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import { AureusError } from '../model/errors.js';
import type { Policy } from '../model/policy.js';
import { PolicyError } from '../policy/policy-problem.js';
import { localCacheDir } from './cache-dir.js';
import { decodePolicyText, MAX_POLICY_BYTES, tooLargeProblem } from './decode-policy-text.js';
import { errnoCode } from './errno-code.js';
import { readCachedPolicy, writeCachedPolicy } from './policy-cache.js';
import { storePaths } from './store-paths.js';

/** Where the effective policy came from, for reports and `aureus policy show`. */
export type PolicySource =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'built-in' };

export interface LoadedPolicy {
  readonly policy: Policy;
  readonly source: PolicySource;
}

export interface LoadPolicyOptions {
  /** Repository root whose `.aureus/policy.yaml` is used when no explicit file is given. */
  readonly root: string;
  /** A policy file named by the user; it must exist. */
  readonly file?: string | undefined;
  /** Folder that paths in messages are shown relative to (the user's working directory). */
  readonly cwd: string;
}

/**
 * A policy file's path as messages show it: relative to where the user stands when the file is
 * in the repository (`../../.aureus/policy.yaml` from a subfolder); a file outside it as it is,
 * not as `../../../x.yaml` for the `/x.yaml` they typed.
 */
export function shownPolicyPath(root: string, cwd: string, path: string): string {
  const fromRoot = relative(root, path);
  if (fromRoot.startsWith('..') || isAbsolute(fromRoot)) return path;
  return relative(cwd, path) || path;
}

/**
 * The policy for a working tree: the named file, else `.aureus/policy.yaml`, else the built-in
 * default. A policy that exists but is broken is an error, never a silent fallback to defaults.
 */
export async function loadPolicy(options: LoadPolicyOptions): Promise<LoadedPolicy> {
  const path = options.file ?? storePaths(options.root).policy;
  const shown = shownPolicyPath(options.root, options.cwd, path);
  const caches = localCacheDir(options.root);
  const policy = await readPolicyFile(path, shown, options.file !== undefined, caches);
  if (policy === undefined)
    return { policy: await builtInPolicy(caches), source: { kind: 'built-in' } };
  return { policy, source: { kind: 'file', path: shown } };
}

/** The built-in default, its parse cached in the cache folder `cacheDir` like a file's. */
export async function builtInPolicy(cacheDir: string | undefined): Promise<Policy> {
  const cached = await readCachedPolicy(cacheDir, 'built-in');
  if (cached !== undefined) return cached;
  const policy = (await import('../policy/default-policy.js')).defaultPolicy();
  await writeCachedPolicy(cacheDir, 'built-in', policy);
  return policy;
}

/**
 * Parses a policy's text, loading the YAML parser and the schema validator on first use, and
 * throws its problems as a PolicyError; a valid parse is kept in the cache folder `cache.dir`
 * under `cache.key`.
 */
export async function parsePolicyText(
  text: string,
  shown: string,
  cache?: { readonly dir: string | undefined; readonly key: string },
): Promise<Policy> {
  const { parsePolicy } = await import('../policy/parse-policy.js');
  const parsed = parsePolicy(text, shown);
  if (!parsed.ok) throw new PolicyError(parsed.problems);
  if (cache !== undefined) await writeCachedPolicy(cache.dir, cache.key, parsed.policy);
  return parsed.policy;
}

/**
 * Reads and parses one policy file without following symlinks (a link could point the policy at
 * any file on the machine, and its contents would end up in error messages). Returns undefined
 * when the file does not exist and `required` is false. With `cacheDir`, a parse is kept in
 * that cache folder by the hash of the file's bytes, and an unchanged file is not parsed again:
 * the YAML parser and the schema validator then never load.
 */
export async function readPolicyFile(
  path: string,
  shown: string,
  required: boolean,
  cacheDir?: string,
): Promise<Policy | undefined> {
  const read = await readPolicyBytes(path, shown, required);
  if (read === undefined) return undefined;
  // Not a git blob id: a key of its own kind, so the two never meet.
  const key = `text-${createHash('sha256').update(read.bytes).digest('hex')}`;
  const cached = await readCachedPolicy(cacheDir, key);
  if (cached !== undefined) return cached;
  return await parsePolicyText(read.text, shown, { dir: cacheDir, key });
}

/**
 * A policy file's text and its parse, read as readPolicyFile reads it (no link followed, the
 * same bounds), for a command that edits the text: undefined when there is no file.
 */
export async function readPolicySource(
  path: string,
  shown: string,
): Promise<{ text: string; policy: Policy } | undefined> {
  const read = await readPolicyBytes(path, shown, false);
  if (read === undefined) return undefined;
  return { text: read.text, policy: await parsePolicyText(read.text, shown) };
}

async function readPolicyBytes(
  path: string,
  shown: string,
  required: boolean,
): Promise<{ bytes: Buffer; text: string } | undefined> {
  const handle = await openNoFollow(path, shown, required);
  if (handle === undefined) return undefined;
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) {
      throw problem(
        shown,
        'the policy path is a directory, not a file.',
        `remove the directory and write the policy as a file at ${shown}.`,
      );
    }
    if (!stats.isFile()) {
      throw problem(
        shown,
        'the policy path is a device, socket or pipe, not a regular file.',
        'point AUREUS at a regular YAML file.',
      );
    }
    // Read one byte past the cap so a file that grew after stat() is still caught as too large.
    const buffer = Buffer.alloc(Math.min(stats.size, MAX_POLICY_BYTES) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_POLICY_BYTES) {
      throw new PolicyError([tooLargeProblem(Math.max(stats.size, bytesRead), shown)]);
    }
    const bytes = buffer.subarray(0, bytesRead);
    const decoded = decodePolicyText(bytes, shown);
    if (!decoded.ok) throw new PolicyError([decoded.problem]);
    return { bytes, text: decoded.text };
  } finally {
    await handle.close();
  }
}

async function openNoFollow(
  path: string,
  shown: string,
  required: boolean,
): Promise<FileHandle | undefined> {
  try {
    return await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' && !required) return undefined;
    if (code === 'ENOENT') {
      throw new AureusError(
        `no policy file at ${shown}.`,
        'check the path; `aureus policy show > .aureus/policy.yaml` writes the default policy with every setting explained.',
      );
    }
    if (code === 'ELOOP') {
      throw problem(
        shown,
        'the policy path is a symlink (mode 120000); AUREUS never follows links for its policy.',
        'commit the policy as a regular file in place of the link.',
      );
    }
    if (code === 'EACCES') {
      throw new AureusError(
        `cannot read ${shown}: permission denied.`,
        'make the file readable by the user running AUREUS.',
      );
    }
    throw error;
  }
}

function problem(file: string, message: string, hint: string): PolicyError {
  return new PolicyError([{ file, line: 1, column: 1, message, hint }]);
}
