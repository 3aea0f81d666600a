// The one rule every benchmark shares for which files AUREUS reads.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MAX_BLOB_BYTES } from '../dist/git/blob-limit.js';

/**
 * Whether AUREUS reads `file` of `repo`: not over its 1 MiB blob limit (it reports larger files
 * as skipped), so the floors never do work AUREUS does not.
 */
export function withinReadLimit(repo, file) {
  return statSync(join(repo, file)).size <= DEFAULT_MAX_BLOB_BYTES;
}
