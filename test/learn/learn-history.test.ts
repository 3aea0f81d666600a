import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

let restoreGit: () => Promise<void>;
beforeAll(async () => {
  restoreGit = await isolateGit();
});
afterAll(() => restoreGit());

/** Every published version of camelcase (scripts/fixtures/fetch-camelcase-versions.mjs). */
const FIXTURE = join('test', 'fixtures', 'learn', 'camelcase');
const VERSIONS: string[] = JSON.parse(readFileSync(join(FIXTURE, 'versions.json'), 'utf8'));
const WEEK_MS = 7 * 86_400_000;

/**
 * Learning on real history: the 28 versions of camelcase committed in order, a week apart,
 * each replayed through `aureus check --commit` into the local ledger, then `aureus learn`.
 */
describe('aureus learn over the history of a published package', () => {
  let repo: Repo & { remove(): Promise<void> };
  const learn = (...args: string[]) => runCliInProcess(['learn', ...args], repo.dir);

  beforeAll(async () => {
    repo = await makeRepo('learn-history');
    repo.write('.gitignore', '.aureus/local/\n');
    const start = Date.parse('2020-01-06T12:00:00Z');
    for (const [i, version] of VERSIONS.entries()) {
      for (const name of ['index.js', 'index.d.ts'])
        repo.git('rm', '--quiet', '-f', '--ignore-unmatch', name);
      for (const name of readdirSync(join(FIXTURE, version)))
        repo.write(name, readFileSync(join(FIXTURE, version, name)));
      const date = new Date(start + i * WEEK_MS).toISOString();
      process.env.GIT_AUTHOR_DATE = date;
      process.env.GIT_COMMITTER_DATE = date;
      const commit = repo.commit(`camelcase ${version}`);
      expect((await runCliInProcess(['check', '--commit', commit], repo.dir)).code).toBe(0);
    }
  });
  afterAll(() => repo.remove());

  it('calibrates on the earlier commits and reports the error on the later 30 % honestly', async () => {
    const run = await learn('--format', 'json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const proposal = JSON.parse(run.stdout);
    expect(proposal.checks).toBe(VERSIONS.length);
    const { calibration } = proposal;
    // A commit of the last 30 days (rework_days) has not been followed long enough to count.
    expect(calibration.tooRecent).toBe(5);
    expect(calibration.samples).toHaveLength(VERSIONS.length - 5);
    expect(calibration.heldOut).toBe(Math.ceil(calibration.samples.length * 0.3));
    expect(calibration.trained + calibration.heldOut).toBe(calibration.samples.length);
    // Real history rewrites its lines: the actual cost is above the estimate somewhere.
    const rewritten = calibration.samples.reduce(
      (sum: number, sample: { rewritten: number }) => sum + sample.rewritten,
      0,
    );
    expect(rewritten).toBeGreaterThan(0);
    for (const factor of Object.values(calibration.factors))
      if (factor !== null) expect(factor).toBeGreaterThanOrEqual(0);
    const fitted = proposal.edits.filter((edit: { kind: string }) => edit.kind === 'calibration');
    // Fitted weights are proposed when, and only when, they predict the held-out commits better.
    expect(fitted.length > 0).toBe(calibration.errorAfter < calibration.errorBefore);
    expect(proposal.allocation.changes).toBe(VERSIONS.length);
  });

  it('prints the proposal as a diff, its evidence, and the error before and after', async () => {
    const run = await learn();
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^--- \/dev\/null\n\+\+\+ b\/\.aureus\/policy\.yaml\n/m);
    expect(run.stdout).toContain('\nEvidence:\n');
    expect(run.stdout).toMatch(
      /Fitted on the first \d+, judged on the last \d+: mean absolute error [\d.]+ points with the policy's weights, [\d.]+ fitted\./,
    );
    expect(run.stdout).toMatch(/Budget from the team's 28 changes: p50 /);
  });

  it('writes the proposed policy only where --output says, and it validates', async () => {
    const out = await makeTempDir('learn-output');
    try {
      const file = join(out.path, 'proposed.yaml');
      expect((await learn('--output', file)).code).toBe(0);
      expect(readdirSync(join(repo.dir, '.aureus'))).toEqual(['local']);
      const validate = await runCliInProcess(['policy', 'validate', file], repo.dir);
      expect(validate.stdout + validate.stderr).toContain('valid');
      expect(validate.code).toBe(0);
      const patch = await learn('--format', 'yaml-patch');
      repo.write('proposal.patch', patch.stdout);
      repo.git('apply', '--check', 'proposal.patch');
    } finally {
      await out.remove();
    }
  });
});
