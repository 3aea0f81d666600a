import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  aureusEdges,
  copyStdSubset,
  ensureGo,
  goListPackages,
  referenceEdges,
  writeGoPolicy,
} from '../../../scripts/reference/go-package-edges.mjs';
import { makeRepo, type Repo } from '../../support/git-fixture.js';
import { useIsolatedGit } from '../../support/isolated-git-suite.js';
import { runCliInProcess } from '../../support/run-cli-in-process.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe("Go import graph against the go command's", () => {
  useIsolatedGit();
  let repo: Repo & { remove(): Promise<void> };
  let policyDir: Awaited<ReturnType<typeof makeTempDir>>;
  let listed: ReturnType<typeof goListPackages>;
  beforeAll(async () => {
    ensureGo();
    listed = goListPackages();
    repo = await makeRepo('go-std');
    copyStdSubset(listed.src, repo.dir);
    repo.commit('standard library subset');
    policyDir = await makeTempDir('go-std-policy');
  });
  afterAll(async () => {
    await repo.remove();
    await policyDir.remove();
  });

  it.each([
    ['without', false],
    ['with', true],
  ])(
    "finds exactly go list's edges between the encoding, go and text packages, %s test files",
    async (_label, withTests) => {
      const policy = join(policyDir.path, 'policy.yaml');
      const files = writeGoPolicy(listed.packages, policy, withTests);
      const run = await runCliInProcess(
        ['analyze', '--format', 'json', '--policy', policy],
        repo.dir,
      );
      const analysis = JSON.parse(run.stdout);
      expect(analysis.stats.sourceFiles).toBe(files);
      const reference = referenceEdges(listed.packages, withTests);
      expect(reference.length).toBeGreaterThan(40);
      expect(aureusEdges(analysis)).toEqual(reference);
      expect(analysis.cycles).toEqual([]);
    },
  );
});
