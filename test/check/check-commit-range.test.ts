import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Octokit } from '@octokit/rest';
import { checkChange } from '../../src/check/check-change.js';
import {
  type CheckCommitRangeOptions,
  checkCommitRange,
} from '../../src/check/check-commit-range.js';
import { MAX_COMPARE_FILES } from '../../src/github/range-change.js';
import type { Report } from '../../src/model/report.js';
import { isolateGit, makeRepo, type Repo, runGit } from '../support/git-fixture.js';
import {
  type GitHubApiDouble,
  type Permissions,
  startGitHubApiDouble,
} from '../support/github-api-double/index.js';
import { makeTempDir } from '../support/temp-dir.js';
import { addFeatures, SMALL_BUDGET, typescriptProject } from './api-check-fixture.js';

const OWNER = 'octo';
/** The least a token needs to check a range (the App's token also reads pull requests). */
const READ_ONLY: Permissions = { contents: 'read', pull_requests: 'read', metadata: 'read' };
const TOKEN = 'read-token';
const TOOL_VERSION = '0.0.0-test';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

let restoreGit: () => Promise<void>;
let double: GitHubApiDouble;
let client: Octokit;
const cleanups: (() => Promise<void>)[] = [];
let repoCount = 0;

beforeAll(async () => {
  restoreGit = await isolateGit();
  double = await startGitHubApiDouble();
  double.addToken(TOKEN, READ_ONLY);
  client = new Octokit({ auth: TOKEN, baseUrl: double.url, request: { retries: 0 }, log: quiet });
});

afterAll(async () => {
  await double.close();
  for (const cleanup of cleanups) await cleanup();
  await restoreGit();
});

interface Served {
  readonly origin: Repo;
  readonly repo: string;
}

interface MergeGroup {
  readonly served: Served;
  /** `merge_group.base_sha`: the tip of main the group was built on. */
  readonly baseSha: string;
  /** `merge_group.head_sha`: the group's merge commit, which descends from the base. */
  readonly headSha: string;
}

/** A real repository with `main` holding `base`, served by the double as octo/<name>. */
async function serve(base: (origin: Repo) => void): Promise<Served> {
  const origin = await makeRepo('check-range');
  cleanups.push(origin.remove);
  base(origin);
  origin.commit('base');
  repoCount += 1;
  const repo = `repo${repoCount}`;
  double.addRepository({ owner: OWNER, repo, gitDir: origin.dir, defaultBranch: 'main' });
  return { origin, repo };
}

/**
 * What a merge queue builds: a branch forked from main with `change` applied, main moving on
 * meanwhile, and the group's commit merging the branch into main's tip on a queue branch.
 */
function queueMergeGroup(served: Served, number: number, change: (origin: Repo) => void) {
  const { origin } = served;
  origin.git('checkout', '--quiet', 'main');
  origin.git('checkout', '--quiet', '-b', `feature-${number}`);
  change(origin);
  origin.commit(`feature ${number}`);
  origin.git('checkout', '--quiet', 'main');
  origin.write(`later-on-main-${number}.txt`, 'main moved on\n');
  const baseSha = origin.commit('main moves on');
  origin.git('checkout', '--quiet', '-b', `gh-readonly-queue/main/pr-${number}-${baseSha}`);
  origin.git('merge', '--quiet', '--no-ff', '--no-edit', `feature-${number}`);
  const headSha = origin.git('rev-parse', 'HEAD');
  origin.git('checkout', '--quiet', 'main');
  return { served, baseSha, headSha } satisfies MergeGroup;
}

async function freshStore(): Promise<string> {
  const store = await makeTempDir('app-store');
  cleanups.push(store.remove);
  return store.path;
}

async function checkOverApi(
  range: MergeGroup,
  options: Partial<CheckCommitRangeOptions> = {},
): Promise<Report> {
  const { served, baseSha, headSha } = range;
  const checked = await checkCommitRange(
    client,
    { owner: OWNER, repo: served.repo, baseSha, headSha },
    {
      cacheDir: await freshStore(),
      toolVersion: TOOL_VERSION,
      policyGate: { kind: 'warn' },
      ...options,
    },
  );
  return checked.report;
}

/**
 * `aureus check` on a fresh clone, for the same three-dot range, with the head checked out as
 * a workflow checks out a merge group: the local check resolves imports over the disk of the
 * working tree, so a clone sitting on another commit would resolve the head's imports wrongly.
 */
async function checkOnClone(range: MergeGroup): Promise<Report> {
  const clone = await makeRepo('check-range-clone', { init: false });
  cleanups.push(clone.remove);
  runGit(clone.dir, ['clone', '--quiet', range.served.origin.dir, '.']);
  runGit(clone.dir, ['checkout', '--quiet', '--detach', range.headSha]);
  return checkChange(
    clone.dir,
    { kind: 'range', base: range.baseSha, head: range.headSha, threeDot: true },
    { cwd: clone.dir, toolVersion: TOOL_VERSION, policyGate: { kind: 'warn' } },
  );
}

function asRange(report: Report): Report {
  return { ...report, change: { ...report.change, source: 'range' } };
}

/** Every request valid against GitHub's description and allowed to the read-only token. */
function expectCleanRequests(): void {
  expect(double.invalidRequests()).toEqual([]);
  expect(double.forbiddenRequests()).toEqual([]);
  expect(double.unexpectedRequests()).toEqual([]);
}

/** Requests by operation, e.g. `{ 'repos/compare-commits': 1, 'git/get-tree': 2 }`. */
function requestCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const request of double.requests()) {
    const id = request.operationId ?? request.path;
    counts[id] = (counts[id] ?? 0) + 1;
  }
  return counts;
}

describe('checkCommitRange', () => {
  it('reaches the Report checkChange reaches on a clone for a merge group', async () => {
    const served = await serve(typescriptProject);
    const group = queueMergeGroup(served, 1, addFeatures);
    double.reset();
    const fromApi = await checkOverApi(group);
    expectCleanRequests();
    const counts = requestCounts();
    const fromGit = await checkOnClone(group);

    expect(fromApi.change.source).toBe('github');
    expect(fromGit.change.source).toBe('range');
    expect(asRange(fromApi)).toEqual(fromGit);

    // What the fixture was built to show, so that the parity above is not vacuous.
    expect(fromApi.change.baseSha).toBe(group.baseSha); // the group's base is its merge base
    expect(fromApi.change.headSha).toBe(group.headSha);
    expect(fromApi.change.complete).toBe(true);
    expect(fromApi.verdict).toBe('block');
    expect(fromApi.cost.total).toBeGreaterThan(10);
    expect(fromApi.policy.source).toBe(`.aureus/policy.yaml@${group.baseSha.slice(0, 12)}`);
    const rules = fromApi.findings.map((finding) => `${finding.status} ${finding.ruleId}`);
    expect(rules).toContain('new circular_dependency');
    expect(rules).toContain('new premature_abstraction');
    // The six files of the feature; main's later file is on both sides, not in the change.
    expect(fromApi.change.files).toBe(6);

    // One compare, each tree once, blobs; no pull request is read.
    expect(Object.keys(counts).sort()).toEqual([
      'git/get-blob',
      'git/get-tree',
      'repos/compare-commits',
    ]);
    expect(counts['repos/compare-commits']).toBe(1);
    expect(counts['git/get-tree']).toBe(2);
  });

  it('keeps a cycle whose alias the change remaps away, over the API as on a clone', async () => {
    const served = await serve(typescriptProject);
    const group = queueMergeGroup(served, 1, (origin) => {
      // `@lib/*` now names a folder that does not exist: under the head's own configs the
      // import closing the cycle looks like a package, and the cycle would vanish with it.
      origin.write(
        'configs/base.json',
        '{ "compilerOptions": { "module": "ESNext", "moduleResolution": "Bundler", "strict": true, "paths": { "@lib/*": ["src/elsewhere/*"] } } }\n',
      );
      origin.write(
        'src/lib/b.ts',
        "import { a } from '@lib/a';\nexport function b(): number {\n  return a.length + 2;\n}\n",
      );
    });
    const fromApi = await checkOverApi(group);
    const fromGit = await checkOnClone(group);
    expect(asRange(fromApi)).toEqual(fromGit);
    expect(fromApi.findings).toContainEqual(
      expect.objectContaining({
        ruleId: 'circular_dependency',
        symbol: 'src/lib/a.ts\nsrc/lib/b.ts',
        status: 'new',
        blocking: true,
      }),
    );
  });

  it('diffs any range from its merge base, as `--three-dot` does', async () => {
    const served = await serve(typescriptProject);
    const group = queueMergeGroup(served, 1, addFeatures);
    // Main moves past the group's base: the range's base is no longer its merge base.
    const { origin } = served;
    origin.write('src/lib/b.ts', 'export function b(): number {\n  return 3;\n}\n');
    const moved = { ...group, baseSha: origin.commit('main edits b') };
    double.reset();
    const fromApi = await checkOverApi(moved);
    expectCleanRequests();

    expect(fromApi.change.baseSha).toBe(group.baseSha);
    expect(asRange(fromApi)).toEqual(await checkOnClone(moved));
  });

  it('is incomplete when the compare stops at 300 files', async () => {
    const served = await serve(typescriptProject);
    const group = queueMergeGroup(served, 1, (origin) => {
      for (let index = 0; index <= MAX_COMPARE_FILES; index += 1) {
        origin.write(`data/f${String(index).padStart(4, '0')}.txt`, `${index}\n`);
      }
    });
    double.reset();
    const report = await checkOverApi(group);
    expectCleanRequests();

    expect(report.verdict).toBe('incomplete');
    expect(report.change.complete).toBe(false);
    expect(report.change.files).toBe(MAX_COMPARE_FILES);
    const cut = `GitHub's compare listed 300 changed files (it stops at 300 without saying how many more changed), but the trees show 1 more changed paths`;
    expect(report.change.notes[0]).toContain(cut);
    expect(report.change.notes[0]).toContain(
      `aureus check --base ${group.baseSha} --head ${group.headSha} --three-dot`,
    );
    expect(report.reasons[0]).toContain(cut);
    expect(requestCounts()['repos/compare-commits']).toBe(1);
  });

  it('applies a budget approval to the head it was given for only', async () => {
    const served = await serve((origin) => {
      origin.write('.aureus/policy.yaml', SMALL_BUDGET);
      origin.write('src/a.ts', 'export const a = 1;\n');
    });
    const group = queueMergeGroup(served, 1, (origin) => {
      const lines = Array.from(
        { length: 12 },
        (_, i) =>
          `export function f${i}(x: number): number {\n  return x > ${i} ? x - ${i} : x + ${i};\n}\n`,
      );
      origin.write('src/many.ts', lines.join(''));
    });
    const approval = { by: '@maintainer', reason: 'agreed in the queue', headSha: group.headSha };

    const plain = await checkOverApi(group);
    const approved = await checkOverApi(group, { budgetApproval: approval });
    const elsewhere = await checkOverApi(group, {
      budgetApproval: { ...approval, headSha: group.baseSha },
    });
    expectCleanRequests();

    expect(plain.cost.total).toBeGreaterThan(plain.budget.block);
    expect(plain.verdict).toBe('block');
    expect(approved.verdict).toBe('warn');
    expect(approved.reasons.join('\n')).toContain(
      '@maintainer approved the overrun for this commit: agreed in the queue',
    );
    expect(elsewhere).toEqual(plain);
  });
});
