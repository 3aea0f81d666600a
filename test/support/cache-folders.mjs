// Jest globalSetup / globalTeardown: the tests, and the CLI processes they start, keep AUREUS's
// caches (src/memory/cache-dir.ts) and TypeScript's compiled code (compiled-code-cache.ts) in
// folders of this run, never in the user's own cache folder.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const OWN = 'AUREUS_TEST_CACHES';

export function setup() {
  const folder = mkdtempSync(join(tmpdir(), 'aureus-test-caches-'));
  // Test workers and the processes they start inherit them.
  process.env.AUREUS_CACHE_DIR = join(folder, 'caches');
  process.env.AUREUS_CODE_CACHE = join(folder, 'code');
  mkdirSync(process.env.AUREUS_CACHE_DIR, { mode: 0o700 });
  process.env[OWN] = folder;
}

export function teardown() {
  const folder = process.env[OWN];
  if (folder) rmSync(folder, { recursive: true, force: true });
}
