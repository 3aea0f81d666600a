// AUREUS's Python import graph against CPython's own import machinery on real code: gyp, the
// Python package node-gyp ships, fetched from the npm registry (pinned) as the exactness script
// fetches it (scripts/reference/python-edges.mjs). When the registry cannot be reached the test
// is skipped and says why, rather than failing on the network.
import { describe, expect, it } from '@jest/globals';
import {
  edgeDifference,
  PYTHON_CODEBASE,
  pythonCodebaseRepo,
  referenceEdges,
} from '../../scripts/reference/python-edges.mjs';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { analyzeRepository } from '../../src/scan/analyze-repository.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

const fetched = (() => {
  try {
    return { ok: true as const, repo: pythonCodebaseRepo() };
  } catch (error) {
    return { ok: false as const, why: error instanceof Error ? error.message : String(error) };
  }
})();
if (!fetched.ok) {
  process.stderr.write(
    `python-import-reference: skipped, the npm registry could not be reached (${fetched.why.split('\n')[0]}).\n`,
  );
}
const online = fetched.ok ? it : it.skip;

describe(`the Python import graph of ${PYTHON_CODEBASE.name}@${PYTHON_CODEBASE.version}'s gyp`, () => {
  useIsolatedGit();

  online('has exactly the edges CPython’s ast and importlib find', async () => {
    const repo = fetched.ok ? fetched.repo : '';
    const analysis = await analyzeRepository(repo, defaultPolicy());
    const ours = analysis.graph.edges.map(({ from, to }) => `${from}\t${to}`);
    const theirs = referenceEdges(repo);
    expect(analysis.stats.byLanguage.python).toBe(58);
    expect(theirs.length).toBeGreaterThan(80);
    expect(edgeDifference(ours, theirs)).toEqual({ onlyInAureus: [], onlyInReference: [] });
    // Its generators import each other only inside functions: no cycle while the files load.
    expect(analysis.cycles).toEqual([]);
  });

  online(
    'gives init the layering its packages’ imports show, and no cycle to tolerate',
    async () => {
      const run = await runCliInProcess(['init', '--dry-run'], fetched.ok ? fetched.repo : '');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(
        'layering    2 layers (2 layers, each importing only those below: [packaging] ← [gyp])',
      );
      expect(run.stdout).toMatch(
        /circular_dependency, [^\n]*\(no violation today: kept at error\)/,
      );
    },
  );
});
