import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/** A class of exactly `loc` lines of code, one field a line: a legacy god class past 500. */
function classOf(name: string, loc: number): string {
  const fields = Array.from({ length: loc - 2 }, (_, i) => `  f${i} = ${i};`);
  return [`export class ${name} {`, ...fields, '}', ''].join('\n');
}

const POLICY = [
  'version: 1',
  'forbidden_patterns:',
  '  god_class:',
  '    growth_tolerance: 20',
  '',
].join('\n');

interface GodClass {
  readonly status: string;
  readonly blocking: boolean;
  readonly measured: number;
  readonly location: { readonly path: string };
  readonly growth?: {
    from: number;
    recorded: number | null;
    tolerance: number;
    tolerated: boolean;
  };
}

/** A legacy repository: a 975-line class, recorded in the committed baseline. */
describe('growth of a legacy finding', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('legacy-growth');
    repo.write('.aureus/policy.yaml', POLICY);
    repo.write('src/engine.ts', classOf('Engine', 975));
    repo.commit('a legacy god class');
    expect((await runCliInProcess(['baseline'], repo.dir)).code).toBe(0);
    repo.commit('record the baseline');
  });
  afterEach(() => repo.remove());

  const check = async (...args: string[]) => {
    const run = await runCliInProcess(['check', ...args, '--format', 'json'], repo.dir);
    const report = JSON.parse(run.stdout);
    const engine: GodClass = report.findings.find(
      (finding: { ruleId: string }) => finding.ruleId === 'god_class',
    );
    return { code: run.code, report, engine };
  };

  it('lets a 3-line fix through: worsened within the tolerance, and says so', async () => {
    repo.write('src/engine.ts', classOf('Engine', 978));
    repo.commit('fix a bug in Engine');
    const { code, report, engine } = await check('--commit', 'HEAD');
    expect(engine).toMatchObject({
      status: 'worsened',
      blocking: false,
      measured: 978,
      growth: { from: 975, recorded: 975, tolerance: 20, tolerated: true },
    });
    expect(report.verdict).toBe('warn');
    expect(report.reasons).toContainEqual(
      expect.stringContaining(
        'worsened god_class (within its growth tolerance): class Engine spans 978 lines',
      ),
    );
    expect(code).toBe(0);
    const text = await runCliInProcess(['check', '--commit', 'HEAD'], repo.dir);
    expect(text.stdout).toContain('(worsened from 975, within its growth tolerance)');
  });

  it('blocks 200 new lines in the same class: growth beyond the tolerance', async () => {
    repo.write('src/engine.ts', classOf('Engine', 1175));
    repo.commit('a feature in Engine');
    const { code, report, engine } = await check('--commit', 'HEAD');
    expect(engine).toMatchObject({
      status: 'worsened',
      blocking: true,
      growth: { from: 975, recorded: 975, tolerance: 20, tolerated: false },
    });
    expect(report.reasons).toContainEqual(
      expect.stringContaining('it grew from 975, 200 over the 975 the baseline records'),
    );
    expect(code).toBe(1);
  });

  it('blocks small changes once together they pass the figure the baseline records', async () => {
    const verdicts: [number, boolean | undefined][] = [];
    for (const loc of [983, 991, 999]) {
      repo.write('src/engine.ts', classOf('Engine', loc));
      repo.commit(`eight more lines: ${loc}`);
      const { code, engine } = await check('--commit', 'HEAD');
      verdicts.push([code, engine.growth?.tolerated]);
    }
    // Each change adds 8 lines, well within 20 of its own base; the third is 24 past the baseline.
    expect(verdicts).toEqual([
      [0, true],
      [0, true],
      [1, false],
    ]);
  });

  it('follows a file renamed since the baseline was committed, in a check and in --all', async () => {
    repo.git('mv', 'src/engine.ts', 'src/core-engine.ts');
    repo.commit('move Engine');
    repo.write('src/core-engine.ts', classOf('Engine', 978));
    repo.commit('fix a bug in Engine');
    const moved = await check('--commit', 'HEAD');
    expect(moved.engine).toMatchObject({ blocking: false, growth: { recorded: 975 } });
    expect(moved.code).toBe(0);
    const all = await check('--all');
    expect(all.engine).toMatchObject({
      location: { path: 'src/core-engine.ts' },
      status: 'worsened',
      blocking: false,
    });
    expect(all.code).toBe(0);
  });

  it('keeps a baselined finding whose file is moved in the working tree: --all says baseline, not new', async () => {
    repo.git('mv', 'src', 'lib');
    const { code, report, engine } = await check('--all');
    expect(engine).toMatchObject({
      location: { path: 'lib/engine.ts' },
      status: 'baseline',
      blocking: false,
    });
    expect(report.verdict).toBe('pass');
    expect(code).toBe(0);
  });

  it('blocks the growth of a finding the baseline does not record: nothing to count from', async () => {
    repo.write('src/other.ts', classOf('Other', 700));
    repo.commit('a class that slipped in after the baseline');
    repo.write('src/other.ts', classOf('Other', 703));
    repo.commit('fix a bug in Other');
    const { code, report } = await check('--commit', 'HEAD');
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        symbol: 'Other',
        status: 'worsened',
        blocking: true,
        growth: { from: 700, recorded: null, tolerance: 20, tolerated: false },
      }),
    );
    expect(code).toBe(1);
  });

  it('does not read the baseline when no rule tolerates growth: any growth blocks', async () => {
    repo.write('.aureus/policy.yaml', 'version: 1\n');
    repo.write('.aureus/baseline.json', 'not read');
    repo.commit('a strict policy');
    repo.write('src/engine.ts', classOf('Engine', 978));
    repo.commit('fix a bug in Engine');
    const { code, report, engine } = await check('--commit', 'HEAD');
    expect(engine).toMatchObject({ blocking: true, growth: { recorded: null, tolerance: 0 } });
    expect(report.change.notes).toEqual([]);
    expect(code).toBe(1);
  });

  it('judges strictly, with a note, when the committed baseline does not read', async () => {
    repo.write('.aureus/baseline.json', '{"version": 1, "findings": "all of them"}');
    repo.commit('break the baseline');
    repo.write('src/engine.ts', classOf('Engine', 978));
    repo.commit('fix a bug in Engine');
    const { code, report, engine } = await check('--commit', 'HEAD');
    expect(engine).toMatchObject({ blocking: true, growth: { recorded: null } });
    expect(report.change.notes).toContainEqual(
      expect.stringMatching(
        /^\.aureus\/baseline\.json@[0-9a-f]{12} is not a baseline AUREUS wrote, so no growth tolerance applies/,
      ),
    );
    expect(code).toBe(1);
  });
});
