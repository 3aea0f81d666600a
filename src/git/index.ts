/** The git adapter: produces a Change (and the blob-keyed file lists the facts cache needs). */

export { patchApplies } from './apply-patch.js';
export { authorIdentity } from './author-identity.js';
export { DEFAULT_MAX_BLOB_BYTES } from './blob-limit.js';
export type { ChangeRequest, ReadChangeOptions } from './change-request.js';
export { listTrackedFiles, type TrackedFile } from './list-files.js';
export { type BlobRequest, type BlobSizes, readBlobs } from './read-blobs.js';
export { readChange } from './read-change.js';
export type { VersionRead } from './read-sides.js';
export { renamesSince } from './renames-since.js';
export { readWorktreeEdits, type WorktreeEdit } from './worktree-edits.js';
