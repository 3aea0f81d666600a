import { randomBytes } from 'node:crypto';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces the file at `path` with `data` so that, even after a crash or power loss, a reader
 * sees either the old content or the new one, never a mix or an empty file.
 *
 * The directory must exist: it is not created, and the fs error (ENOENT, EACCES, EISDIR, …)
 * is passed on unchanged. On any failure before the rename the temporary file is removed and
 * the old file is left untouched.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const directory = dirname(path);
  // Same directory as the target: rename() is only atomic within one file system.
  // pid + random suffix: concurrent writers (threads or processes) never share a temp file.
  const temp = join(
    directory,
    `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  await writeDurably(temp, data);
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  // The rename lives in the directory entry: until the directory is synced, a crash can still
  // bring back the old name (Pillai et al., OSDI'14).
  await fsyncDirectory(directory);
}

/** Creates `temp` exclusively, writes and fsyncs it; removes it if any step fails. */
async function writeDurably(temp: string, data: string | Uint8Array): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx');
    await handle.writeFile(data);
    // Without fsync before rename, ext4/xfs may persist the rename before the data blocks,
    // leaving a zero-length file after a crash.
    await handle.sync();
    const closing = handle;
    handle = undefined;
    await closing.close();
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
}

/** Makes a directory's entries (a new or renamed file in it) durable. */
export async function fsyncDirectory(directory: string): Promise<void> {
  // Windows cannot open a directory as a file; there the rename is as durable as NTFS makes it.
  if (process.platform === 'win32') return;
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
