import { afterAll, beforeAll } from '@jest/globals';
import { isolateGit } from './git-fixture.js';

/**
 * isolateGit for the enclosing `describe` (or the whole file, at its top level): applied before
 * its first test and undone after its last. Kept apart from git-fixture.ts, which the benchmarks
 * import outside Jest.
 */
export function useIsolatedGit(): void {
  let restore: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    restore = await isolateGit();
  });
  afterAll(() => restore?.());
}
