// Jest globalSetup / globalTeardown: the CLI processes the tests start keep TypeScript's compiled
// code (src/memory/compiled-code-cache.ts) in one folder of this run, never in the user's own cache.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const OWN = 'AUREUS_TEST_CODE_CACHE';

export function setup() {
  const folder = mkdtempSync(join(tmpdir(), 'aureus-test-code-cache-'));
  // Test workers and the processes they start inherit it.
  process.env.AUREUS_CODE_CACHE = folder;
  process.env[OWN] = folder;
}

export function teardown() {
  const folder = process.env[OWN];
  if (folder) rmSync(folder, { recursive: true, force: true });
}
