import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Octokit } from '@octokit/rest';
import { detectLanguage } from '../../src/analysis/detect-language.js';
import { checkChange } from '../../src/check/check-change.js';
import { checkPullRequest } from '../../src/check/check-pull-request.js';
import { readChange } from '../../src/git/read-change.js';
import type { Report } from '../../src/model/report.js';
import { PolicyError } from '../../src/policy/policy-problem.js';
import { lockfile, packageJson } from '../pricing/npm-fixtures.js';
import { isolateGit, makeRepo, type Repo, runGit } from '../support/git-fixture.js';
import {
  type GitHubApiDouble,
  type Permissions,
  startGitHubApiDouble,
} from '../support/github-api-double/index.js';
import { godClassOf, lockWithBig, MIB } from '../support/large-files.js';
import { makeTempDir } from '../support/temp-dir.js';
import { addFeatures, SMALL_BUDGET, typescriptProject } from './api-check-fixture.js';

const OWNER = 'octo';
/** The least a token needs to check a pull request. */
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

interface PullRequest {
  readonly served: Served;
  readonly number: number;
  /** The tip of main when the pull request is checked (not the merge base). */
  readonly baseSha: string;
  readonly headSha: string;
  /** Where the feature branch left main: the merge base. */
  readonly forkSha: string;
}

/** A real repository with `main` holding `base`, served by the double as octo/<name>. */
async function serve(base: (origin: Repo) => void): Promise<Served> {
  const origin = await makeRepo('check-pr');
  cleanups.push(origin.remove);
  base(origin);
  origin.commit('base');
  repoCount += 1;
  const repo = `repo${repoCount}`;
  double.addRepository({ owner: OWNER, repo, gitDir: origin.dir, defaultBranch: 'main' });
  return { origin, repo };
}

/**
 * Pull request #number: a branch forked from main's tip with `change` applied, then main moves
 * on (so the merge base is not the base tip).
 */
function openPullRequest(
  served: Served,
  number: number,
  change: (origin: Repo) => void,
): PullRequest {
  const { origin } = served;
  origin.git('checkout', '--quiet', 'main');
  const forkSha = origin.git('rev-parse', 'HEAD');
  origin.git('checkout', '--quiet', '-b', `feature-${number}`);
  change(origin);
  const headSha = origin.commit(`feature ${number}`);
  origin.git('checkout', '--quiet', 'main');
  origin.write(`later-on-main-${number}.txt`, 'main moved on\n');
  const baseSha = origin.commit('main moves on');
  origin.git('checkout', '--quiet', `feature-${number}`);
  double.addPullRequest({ owner: OWNER, repo: served.repo, number, baseSha, headSha });
  return { served, number, baseSha, headSha, forkSha };
}

async function freshStore(): Promise<string> {
  const store = await makeTempDir('app-store');
  cleanups.push(store.remove);
  return store.path;
}

async function checkOverApi(pull: PullRequest, cacheDir?: string): Promise<Report> {
  const target = { owner: OWNER, repo: pull.served.repo, number: pull.number };
  const checked = await checkPullRequest(client, target, {
    cacheDir: cacheDir ?? (await freshStore()),
    toolVersion: TOOL_VERSION,
    policyGate: { kind: 'warn' },
  });
  return checked.report;
}

/**
 * `aureus check` on a fresh clone, for the same three-dot range, with the head checked out as
 * a workflow checks out a pull request: the local check resolves imports over the disk of the
 * working tree, so a clone sitting on another commit would resolve the head's imports wrongly.
 */
async function checkOnClone(pull: PullRequest): Promise<Report> {
  const clone = await makeRepo('check-pr-clone', { init: false });
  cleanups.push(clone.remove);
  runGit(clone.dir, ['clone', '--quiet', pull.served.origin.dir, '.']);
  runGit(clone.dir, ['checkout', '--quiet', '--detach', pull.headSha]);
  return checkChange(
    clone.dir,
    { kind: 'range', base: pull.baseSha, head: pull.headSha, threeDot: true },
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

function blobRequests(): string[] {
  return double.callsTo('git/get-blob').map((request) => request.path.split('/').at(-1) ?? '');
}

interface TreeFile {
  readonly path: string;
  readonly sha: string;
}

function filesAt(origin: Repo, commit: string): TreeFile[] {
  return origin
    .git('ls-tree', '-r', '--full-tree', commit)
    .split('\n')
    .map((line) => {
      const [meta = '', path = ''] = line.split('\t');
      return { path, sha: meta.split(' ')[2] ?? '' };
    });
}

/** TypeScript, Python: files the analysis keeps facts of (the fixtures ignore none). */
function sourceBlobs(origin: Repo, commit: string): string[] {
  return filesAt(origin, commit)
    .filter((file) => detectLanguage(file.path) !== undefined)
    .map((file) => file.sha);
}

describe('checkPullRequest', () => {
  it('reaches the Report checkChange reaches on a clone, from the API alone', async () => {
    const served = await serve(typescriptProject);
    const pull = openPullRequest(served, 1, addFeatures);
    double.reset();
    const fromApi = await checkOverApi(pull);
    expectCleanRequests();
    const fromGit = await checkOnClone(pull);

    expect(fromApi.change.source).toBe('github');
    expect(fromGit.change.source).toBe('range');
    expect(asRange(fromApi)).toEqual(fromGit);

    // What the fixture was built to show, so that the parity above is not vacuous.
    expect(fromApi.change.baseSha).toBe(pull.forkSha);
    expect(fromApi.change.complete).toBe(true);
    expect(fromApi.verdict).toBe('block');
    expect(fromApi.budget.block).toBe(10);
    expect(fromApi.cost.total).toBeGreaterThan(10);
    expect(fromApi.policy.source).toBe(`.aureus/policy.yaml@${pull.forkSha.slice(0, 12)}`);
    const rules = fromApi.findings.map((finding) => `${finding.status} ${finding.ruleId}`);
    expect(rules).toContain('new circular_dependency');
    expect(rules).toContain('new premature_abstraction');
    const cycle = fromApi.findings.find((finding) => finding.ruleId === 'circular_dependency');
    expect(cycle?.symbol).toBe('src/lib/a.ts\nsrc/lib/b.ts');
    // Each tree once, although the change, the policy and both analyses read them.
    expect(double.callsTo('git/get-tree')).toHaveLength(2);
  });

  it('judges a pull request that edits the policy by the base policy', async () => {
    const served = await serve(typescriptProject);
    const pull = openPullRequest(served, 1, (origin) => {
      origin.write('.aureus/policy.yaml', SMALL_BUDGET.replace('block: 10', 'block: 10000'));
      addFeatures(origin);
    });
    double.reset();
    const fromApi = await checkOverApi(pull);
    expectCleanRequests();

    expect(fromApi.policy.changed).toBe(true);
    expect(fromApi.policy.changes.join('\n')).toContain('budgets.change.block');
    expect(fromApi.budget.block).toBe(10);
    expect(fromApi.verdict).toBe('block');
    expect(asRange(fromApi)).toEqual(await checkOnClone(pull));
  });

  it('judges a pull request that drops a module rule by the base rule, and calls the edit a loosening', async () => {
    const rules =
      'version: 1\nmodules:\n  ui: { paths: ["src/ui/**"] }\n  db: { paths: ["src/db/**"], may_not_import: [ui] }\n';
    const served = await serve((origin) => {
      origin.write('.aureus/policy.yaml', rules);
      origin.write('src/ui/label.ts', 'export const label = 1;\n');
      origin.write('src/db/query.ts', 'export const query = 1;\n');
    });
    const pull = openPullRequest(served, 1, (origin) => {
      origin.write('.aureus/policy.yaml', rules.replace(', may_not_import: [ui]', ''));
      origin.write(
        'src/db/query.ts',
        "import { label } from '../ui/label.js';\nexport const query = label;\n",
      );
    });
    double.reset();
    const fromApi = await checkOverApi(pull);
    expectCleanRequests();

    expect(fromApi.policy.loosens).toEqual(['modules.db.may_not_import: ["ui"] → unset']);
    expect(fromApi.findings).toContainEqual(
      expect.objectContaining({
        ruleId: 'forbidden_dependency',
        status: 'new',
        blocking: true,
        location: { path: 'src/db/query.ts', startLine: 1, endLine: 1 },
      }),
    );
    expect(fromApi.verdict).toBe('block');
  });

  it('refuses a base policy that is a symlink, with the words of the local check', async () => {
    const served = await serve((origin) => {
      origin.write('policies/real.yaml', SMALL_BUDGET);
      origin.symlink('../policies/real.yaml', '.aureus/policy.yaml');
      origin.write('src/a.ts', 'export const a = 1;\n');
    });
    const pull = openPullRequest(served, 1, (origin) => {
      origin.write('src/a.ts', 'export const a = 2;\n');
    });
    double.reset();
    const fromApi = await checkOverApi(pull).catch((error: unknown) => error);
    expectCleanRequests();
    const fromGit = await checkOnClone(pull).catch((error: unknown) => error);

    expect(fromApi).toBeInstanceOf(PolicyError);
    expect(fromGit).toBeInstanceOf(PolicyError);
    if (!(fromApi instanceof PolicyError) || !(fromGit instanceof PolicyError)) return;
    expect(fromApi.message).toBe(fromGit.message);
    expect(fromApi.problems).toEqual(fromGit.problems);
    expect(fromApi.message).toContain('the policy path is a symlink (mode 120000)');
  });

  it('downloads only blobs whose facts the store does not hold yet', async () => {
    const served = await serve(typescriptProject);
    const { origin } = served;
    const first = openPullRequest(served, 1, addFeatures);
    const second = openPullRequest(served, 2, (edit) => {
      // A cycle through the alias: found only if the configs read from the store are right.
      edit.write(
        'src/lib/c.ts',
        "import { d } from '@lib/d';\nexport const c = (): number => d;\n",
      );
      edit.write('src/lib/d.ts', "import { c } from '@lib/c';\nexport const d = c.length;\n");
      edit.write('src/app/main.ts', "export const main = (): string => 'simpler';\n");
    });
    const store = await freshStore();
    await checkOverApi(first, store);

    double.reset();
    const warm = await checkOverApi(second, store);
    expectCleanRequests();
    const requested = blobRequests();
    double.reset();
    const cold = await checkOverApi(second);
    expectCleanRequests();

    expect(warm).toEqual(cold);
    expect(warm.findings.map((finding) => finding.symbol)).toContain('src/lib/c.ts\nsrc/lib/d.ts');
    expect(requested.length).toBe(new Set(requested).size);
    expect(requested.length).toBeLessThan(blobRequests().length);

    // Facts of the first check's files (either side) are in the store by blob id.
    const cached = new Set([
      ...sourceBlobs(origin, first.forkSha),
      ...sourceBlobs(origin, first.headSha),
    ]);
    const uncached = [
      ...sourceBlobs(origin, second.forkSha),
      ...sourceBlobs(origin, second.headSha),
    ].filter((sha) => !cached.has(sha));
    const change = await readChange(origin.dir, {
      kind: 'range',
      base: second.baseSha,
      head: second.headSha,
      threeDot: true,
    });
    // The change's own sides are read for pricing whatever the store holds.
    const changed = change.files
      .flatMap((file) => [file.base, file.head])
      .filter((side) => side?.kind === 'text' || side?.kind === 'binary')
      .map((side) => side?.blobSha ?? '');
    // Besides: the base policy, whose parse is cached only in the bundled build. The configs
    // TypeScript reads (both sides have paths no earlier check resolved) come from the store.
    const policy = filesAt(origin, second.forkSha)
      .filter((file) => file.path === '.aureus/policy.yaml')
      .map((file) => file.sha);
    expect(uncached.length).toBeGreaterThan(0);
    expect(policy).toHaveLength(1);
    expect(new Set(requested)).toEqual(new Set([...changed, ...uncached, ...policy]));
  });

  it('is incomplete, naming the file, when a blob cannot be read', async () => {
    // One source file, and a change that downloads nothing (a link): the analyses' read of
    // src/only.ts is the only blob request, so it is the one that fails.
    const served = await serve((origin) => {
      origin.write('src/only.ts', 'export const only = 1;\n');
      origin.symlink('src/only.ts', 'link');
    });
    const pull = openPullRequest(served, 1, (origin) => {
      runGit(origin.dir, ['rm', '--quiet', 'link']);
      origin.symlink('README', 'link');
    });
    double.reset();
    double.failNext('git/get-blob', { status: 404 });
    const report = await checkOverApi(pull);
    expectCleanRequests();

    expect(double.callsTo('git/get-blob')).toHaveLength(1);
    expect(report.verdict).toBe('incomplete');
    expect(report.change.complete).toBe(false);
    const onlyNotes = report.change.notes.filter((note) => note.startsWith('src/only.ts'));
    expect(onlyNotes).toHaveLength(2);
    expect(onlyNotes[0]).toMatch(
      /^src\/only\.ts could not be read at the base, so the analysis of the base lacks it: GitHub answered 404 for blob [0-9a-f]{40}\.$/,
    );
    expect(onlyNotes[1]).toMatch(/^src\/only\.ts could not be read at the head/);
  });

  it('is incomplete when a blob of the change itself cannot be read', async () => {
    const served = await serve((origin) => origin.write('src/a.ts', 'export const a = 1;\n'));
    const pull = openPullRequest(served, 1, (origin) =>
      origin.write('src/a.ts', 'export const a = 2;\n'),
    );
    double.reset();
    double.failNext('git/get-blob', { status: 404 });
    const report = await checkOverApi(pull);
    expectCleanRequests();

    expect(report.verdict).toBe('incomplete');
    expect(report.change.notes.join('\n')).toMatch(
      /^src\/a\.ts could not be read: GitHub answered 404 for blob /m,
    );
  });

  it('is incomplete, as on a clone, for a TypeScript file over the read limit', async () => {
    const served = await serve((origin) => origin.write('src/a.ts', 'export const a = 1;\n'));
    const pull = openPullRequest(served, 1, (origin) =>
      origin.write('src/engine.ts', godClassOf(1.1 * MIB)),
    );
    double.reset();
    const fromApi = await checkOverApi(pull);
    expectCleanRequests();

    expect(fromApi.verdict).toBe('incomplete');
    expect(fromApi.change.notes).toContainEqual(
      expect.stringMatching(/^src\/engine\.ts: TypeScript over the read limit/),
    );
    // Over the limit by the tree's size: never downloaded.
    expect(blobRequests()).not.toContain(pull.served.origin.git('rev-parse', 'HEAD:src/engine.ts'));
    expect(asRange(fromApi)).toEqual(await checkOnClone(pull));
  });

  it('reads a lockfile over 1 MiB, as on a clone, to price what a new dependency brings', async () => {
    const served = await serve((origin) => {
      origin.write('package.json', packageJson({ dependencies: {} }));
      origin.write('package-lock.json', lockfile({}));
    });
    const pull = openPullRequest(served, 1, (origin) => {
      origin.write('package.json', packageJson({ dependencies: { big: '1.0.0' } }));
      origin.write('package-lock.json', lockWithBig(5000, true));
    });
    double.reset();
    const fromApi = await checkOverApi(pull);
    expectCleanRequests();

    expect(fromApi.change.complete).toBe(true);
    expect(fromApi.dependencies).toEqual([
      expect.objectContaining({ name: 'big', transitivePackages: 5000, points: 25_000 }),
    ]);
    expect(fromApi.verdict).toBe('block');
    expect(asRange(fromApi)).toEqual(await checkOnClone(pull));
  });

  it('throws API errors other than an unreadable blob', async () => {
    const served = await serve((origin) => origin.write('src/a.ts', 'export const a = 1;\n'));
    const pull = openPullRequest(served, 1, (origin) =>
      origin.write('src/a.ts', 'export const a = 2;\n'),
    );
    double.reset();
    double.failNext('git/get-blob', { status: 500 });
    await expect(checkOverApi(pull)).rejects.toMatchObject({ status: 500 });
  });

  it('refuses names GitHub cannot tell apart: a new finding in x\\xfe.ts is never the baseline of x\\xff.ts', async () => {
    const godClass = `export class Engine {\n${Array.from({ length: 40 }, (_, i) => `  m${i} = ${i};`).join('\n')}\n}\n`;
    const named = (origin: Repo, byte: number) =>
      writeFileSync(
        Buffer.concat([Buffer.from(`${origin.dir}/x`), Buffer.of(byte), Buffer.from('.ts')]),
        godClass,
      );
    const served = await serve((origin) => {
      origin.write(
        '.aureus/policy.yaml',
        'version: 1\nforbidden_patterns:\n  god_class:\n    max_loc: 30\n',
      );
      named(origin, 0xff);
    });
    const pull = openPullRequest(served, 1, (origin) => named(origin, 0xfe));
    double.reset();
    await expect(checkOverApi(pull)).rejects.toThrow(
      /lists two files of [0-9a-f]{40} under one name, x\uFFFD\.ts: their names differ only in bytes that are not UTF-8/,
    );
    // git reads both names byte for byte: there the new finding is new.
    const fromGit = await checkOnClone(pull);
    expect(fromGit.verdict).toBe('block');
  });
});
