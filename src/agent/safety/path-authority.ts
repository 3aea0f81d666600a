import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode } from '../../memory/errno-code.js';
import { globMatcher, type PathTest } from '../../policy/glob-matcher.js';
import type { ToolResult } from '../tool-contract.js';

/** Reads may look at protected files (but never `.git`); writes create, change or delete. */
export type PathIntent = 'read' | 'write';

/** A path the authority accepted: `relative` is `/`-separated, `''` for the tree's root. */
export interface ResolvedPath {
  readonly relative: string;
  readonly absolute: string;
  /** What is there now; `null` when nothing is (only its folders, if any, exist). */
  readonly kind: 'file' | 'folder' | 'other' | null;
}

export type PathRefusal = Extract<ToolResult, { ok: false }> & { readonly refusedBy: 'path' };

/**
 * Never written, whatever the policy says: what makes the repository run code (hooks,
 * workflows) or judge a change (AUREUS's policy and memory). Compared in lower case, so a
 * case-insensitive file system cannot be used to reach them under another spelling.
 */
const ALWAYS_PROTECTED = ['.aureus/**', '.github/workflows/**', '.husky/**'];

/** Whether a write to a repository path is refused: the policy's globs plus ALWAYS_PROTECTED. */
export function protectedPathTest(policyGlobs: readonly string[]): PathTest {
  const policy = globMatcher(policyGlobs);
  const always = globMatcher(ALWAYS_PROTECTED);
  return (path) => policy(path) || always(path.toLowerCase());
}

/**
 * The one place a path the model gives becomes a place on disk, inside the run's tree `root`
 * (absolute, a real folder). It is resolved once, here, and refused with the rule it breaks:
 * not a plain relative `/`-separated path, a `..` step, a control character, a `.git` entry at
 * any depth, any symbolic link on its way (a link the repository commits is never followed,
 * wherever it points), or, for a write, a protected path.
 */
export async function resolveRunPath(
  root: string,
  given: unknown,
  intent: PathIntent,
  isProtected: PathTest,
): Promise<ResolvedPath | PathRefusal> {
  const parsed = parsePath(given);
  if ('refusal' in parsed) return parsed.refusal;
  const { segments } = parsed;
  const relative = segments.join('/');
  if (intent === 'write') {
    if (relative === '') return refuse('the root of the tree is not a file', 'name a file.');
    if (isProtected(relative)) {
      return refuse(
        `${relative} is a protected path: the policy (permissions.protected_paths) and AUREUS itself never let the builder change it (workflows, hooks, .aureus/).`,
        'leave it unchanged, and say in your final answer what should change there so a person can do it.',
      );
    }
  }
  let current = root;
  for (const [index, segment] of segments.entries()) {
    current = join(current, segment);
    const kind = await kindOf(current);
    const isLast = index === segments.length - 1;
    if (kind === 'link') {
      const at = segments.slice(0, index + 1).join('/');
      return refuse(
        `${at} is a symbolic link; the builder never follows links, wherever they point.`,
        'use the path of the file itself, not of a link to it.',
      );
    }
    if (kind === null) return { relative, absolute: join(root, ...segments), kind: null };
    if (!isLast && kind !== 'folder') {
      return refuse(
        `${segments.slice(0, index + 1).join('/')} is not a folder.`,
        'check the path with list_dir.',
      );
    }
    if (isLast) return { relative, absolute: current, kind };
  }
  return { relative, absolute: root, kind: 'folder' };
}

type Parsed = { readonly segments: readonly string[] } | { readonly refusal: PathRefusal };

function parsePath(given: unknown): Parsed {
  const fail = (error: string, hint: string): Parsed => ({ refusal: refuse(error, hint) });
  const relativeHint = 'give a path relative to the repository root, with / between folders.';
  if (typeof given !== 'string') return fail('the path is not a string.', relativeHint);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f]/.test(given)) {
    return fail('the path holds a control character (or NUL).', relativeHint);
  }
  if (given.startsWith('/') || given.startsWith('~') || /^[A-Za-z]:/.test(given)) {
    return fail(
      `${given} is an absolute path; the builder works inside the repository only.`,
      relativeHint,
    );
  }
  if (given.includes('\\')) return fail('the path holds a backslash.', relativeHint);
  const segments = given.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) {
    return fail(`${given} steps out with "..", which the builder never follows.`, relativeHint);
  }
  if (segments.some((segment) => segment.toLowerCase() === '.git')) {
    return fail(
      `${given} is inside a .git entry: git's own data is never read or written by the builder.`,
      'use git_status, git_diff and git_commit for what git knows.',
    );
  }
  return { segments };
}

async function kindOf(path: string): Promise<ResolvedPath['kind'] | 'link'> {
  try {
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) return 'link';
    if (stats.isFile()) return 'file';
    if (stats.isDirectory()) return 'folder';
    return 'other';
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

export function refuse(error: string, hint: string): PathRefusal {
  return { ok: false, refusedBy: 'path', error, hint };
}
