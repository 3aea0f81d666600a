import type { DiffFile } from './diff.js';
import { HTML_URL } from './github-objects.js';

/** The files API never lists more than this many files, however large the pull request. */
export const MAX_LISTED_FILES = 3000;

export interface DiffEntryOptions {
  readonly apiUrl: string;
  readonly fullName: string;
  /** The commit the blob, raw and contents links point into. */
  readonly commitSha: string;
  /** GitHub past its diff limits: no `patch`, and zero counts. */
  readonly truncatePatches: boolean;
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** GitHub's `diff-entry`, as `pulls/list-files`, `repos/get-commit` and compare list them. */
export function diffEntry(file: DiffFile, options: DiffEntryOptions): Record<string, unknown> {
  const { apiUrl, fullName, commitSha } = options;
  const path = encodePath(file.filename);
  const truncated = options.truncatePatches;
  const additions = truncated ? 0 : file.additions;
  const deletions = truncated ? 0 : file.deletions;
  return {
    sha: file.sha,
    filename: file.filename,
    status: file.status,
    additions,
    deletions,
    changes: additions + deletions,
    blob_url: `${HTML_URL}/${fullName}/blob/${commitSha}/${path}`,
    raw_url: `${HTML_URL}/${fullName}/raw/${commitSha}/${path}`,
    contents_url: `${apiUrl}/repos/${fullName}/contents/${path}?ref=${commitSha}`,
    ...(file.patch === undefined || truncated ? {} : { patch: file.patch }),
    ...(file.previousFilename === undefined ? {} : { previous_filename: file.previousFilename }),
  };
}
