/**
 * A proposal's edits in the two other forms the verifier needs: a unified diff (for git and for
 * people) and a Change (for the pricing).
 */

import { createHash } from 'node:crypto';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { Change, ChangedFile, FileVersion } from '../model/change.js';
import type { FileEdit } from './proposal.js';

/**
 * The edits as one unified diff in git's form (`a/` and `b/` prefixes, `/dev/null` for a deleted
 * file): what `git apply` checks and applies, what `aureus simplify --format diff` prints, and
 * what reviewers read. Three lines of context, as git gives.
 */
export function unifiedDiff(edits: readonly FileEdit[]): string {
  return edits.map(fileDiff).join('');
}

function fileDiff(edit: FileEdit): string {
  const deleted = edit.after === null;
  const patch = createTwoFilesPatch(
    `a/${edit.path}`,
    deleted ? '/dev/null' : `b/${edit.path}`,
    edit.before,
    edit.after ?? '',
    undefined,
    undefined,
    { context: 3, headerOptions: FILE_HEADERS_ONLY },
  );
  return `diff --git a/${edit.path} b/${edit.path}\n${deleted ? 'deleted file mode 100644\n' : ''}${patch}`;
}

/**
 * A proposal's edits as a Change from the files as they are to the files as the proposal leaves
 * them, so that the pricing every other change goes through prices the patch too: a patch is
 * offered only when this change costs less than nothing.
 */
export function changeOfEdits(edits: readonly FileEdit[]): Change {
  return {
    source: 'worktree',
    baseSha: null,
    headSha: null,
    files: edits.map(changedFile),
    complete: true,
    notes: [],
  };
}

function changedFile(edit: FileEdit): ChangedFile {
  const base = version(edit.path, edit.before);
  if (edit.after === null) return { status: 'deleted', path: edit.path, base };
  return { status: 'modified', path: edit.path, base, head: version(edit.path, edit.after) };
}

function version(path: string, text: string): FileVersion {
  return {
    path,
    blobSha: gitBlobId(text),
    mode: '100644',
    kind: 'text',
    size: Buffer.byteLength(text),
    text,
    validUtf8: true,
  };
}

/** The id git gives these bytes, so the facts of a patched file cache like any other blob's. */
export function gitBlobId(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
