import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { detectLanguage } from '../analysis/detect-language.js';
import { DEFAULT_MAX_BLOB_BYTES } from '../git/blob-limit.js';
import { runGit } from '../git/git-runner.js';
import { memoizedTreeReader } from '../github/api-trees.js';
import type { GitHubClient } from '../github/github-client.js';
import type { RepositoryCoordinates } from '../github/repository-coordinates.js';
import { createBlobTextCache } from '../memory/blob-text-cache.js';
import type { Change } from '../model/change.js';
import { hasEscapedBytes } from '../model/path-bytes.js';
import { apiRepositorySource } from '../scan/api-repository-source.js';
import { cachedBlobTexts } from '../scan/cached-blob-texts.js';
import type { WorkTree } from './simplify-pull-request.js';

export interface MaterializeLimits {
  /** Most source and project files written; a larger head is left to the Action. */
  readonly maxFiles: number;
  /** Most bytes those files may hold together. */
  readonly maxBytes: number;
}

/** Sized for one small machine serving many repositories: a few seconds of ts-morph each. */
export const APP_WORK_TREE_LIMITS: MaterializeLimits = {
  maxFiles: 2000,
  maxBytes: 32 * 1024 * 1024,
};

/** The files a TypeScript program needs besides its sources: how it compiles and resolves. */
const PROJECT_FILE = /(^|\/)(tsconfig[^/]*\.json|jsconfig\.json|package\.json)$/;
const REGULAR_FILE = new Set(['100644', '100755']);

/**
 * The App has no checkout: for reflexion it writes the head's TypeScript and JavaScript (and
 * their tsconfig/package.json files) into a temporary git work tree, read over the API through
 * the content-keyed text cache, so a repository's unchanged files are downloaded once for all
 * its pull requests. Symlinks and submodules are never written, nor a path that would land
 * outside the folder. Its dependencies are not installed: their types are unknown to the check,
 * which then catches fewer errors than the Action's on a checkout that installed them.
 * A string says why no work tree was made.
 */
export async function materializeHead(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  change: Change,
  options: { readonly cacheDir: string | undefined; readonly limits: MaterializeLimits },
): Promise<WorkTree | string> {
  const headSha = change.headSha;
  if (headSha === null) return 'the change has no head commit.';
  const readTree = memoizedTreeReader(client, repository);
  const tree = await readTree(headSha);
  if (tree.truncated) return 'GitHub truncated the head tree, so the project cannot be rebuilt.';
  const known = change.files.flatMap((file) => (file.head === undefined ? [] : [file.head]));
  const source = apiRepositorySource(client, repository, {
    cacheDir: options.cacheDir,
    readTree,
    known,
  });
  const files = await source.listFiles(headSha);
  const wanted = files.filter(
    (file) =>
      REGULAR_FILE.has(file.mode) &&
      !file.path.includes('node_modules/') &&
      isProjectPath(file.path),
  );
  const bytes = wanted.reduce((sum, file) => sum + (file.size ?? 0), 0);
  const { maxFiles, maxBytes } = options.limits;
  if (wanted.length > maxFiles || bytes > maxBytes)
    return `the head holds ${wanted.length} TypeScript/JavaScript and project files (${Math.round(bytes / 1024)} KiB), more than the App rebuilds (${maxFiles} files, ${Math.round(maxBytes / 1024)} KiB): run the AUREUS Action for simplifications.`;

  const blobs = await cachedBlobTexts(
    createBlobTextCache(options.cacheDir),
    source.readBlobs,
    DEFAULT_MAX_BLOB_BYTES,
  )(wanted);
  const root = await mkdtemp(join(tmpdir(), 'aureus-simplify-'));
  const dispose = () => rm(root, { recursive: true, force: true });
  try {
    for (const { version } of blobs) {
      // Only exact texts: a lossy decoding would not hash back to the head's blob. Only names
      // that are UTF-8: any other has no string the file system takes back (model/path-bytes.ts).
      if (version.text === undefined || version.validUtf8 !== true) continue;
      if (hasEscapedBytes(version.path)) continue;
      const target = resolve(root, version.path);
      if (!target.startsWith(`${root}${sep}`)) continue;
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, version.text);
    }
    await runGit(root, ['init', '--quiet']);
    await runGit(root, ['add', '--all', '--force']);
  } catch (error) {
    await dispose();
    throw error;
  }
  const headFiles = new Map(files.map((file) => [file.path, file]));
  return { root, headFiles, dispose };
}

/** Project files and sources: TS/JS for the patches, Python and Go for their findings. */
function isProjectPath(path: string): boolean {
  if (PROJECT_FILE.test(path)) return true;
  const language = detectLanguage(path);
  return language !== undefined && language !== 'java';
}
