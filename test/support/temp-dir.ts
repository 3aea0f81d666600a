import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder under the system temp dir, and a function that removes it. */
export async function makeTempDir(
  prefix: string,
): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `aureus-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
