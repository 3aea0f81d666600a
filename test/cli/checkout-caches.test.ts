import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { VERSION_FOLDER } from '../../src/memory/facts-cache-folders.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { aureus, ROOT, type Run, run, useHookTestEnvironment } from '../hooks/hook-fixture.js';
import {
  CHECKOUT_CACHE_ROOTS,
  contentsOf,
  forgedFactsFiles,
  forgedPolicyFile,
  linkTargets,
  typeScriptFacts,
} from '../support/forged-caches.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * THREATS.md rows 31 and 35: nothing a checkout contains feeds AUREUS's memory. A pull request
 * commits forged cache entries (for the base side's blob and the head side's, checksums
 * recomputed), a forged parsed policy, or links at the cache folders; `aureus check` over the
 * pull request's range and `aureus hook pre-commit` over the same change staged give the
 * verdict of a run with no cache at all, and nothing is written through the links. The real
 * bundle runs: the parsed-policy cache exists only there.
 */

const BIN = join(ROOT, 'bin', 'aureus.js');
const GOD_CLASS_POLICY = 'version: 1\nbudgets:\n  change:\n    warn: 400\n    block: 500\n';
const SMALL_POLICY = 'version: 1\nbudgets:\n  change:\n    warn: 40\n    block: 60\n';
const APP_BEFORE = 'export const app = 1;\n';
/** A class of 560 one-line methods: a god class (over 500 lines) and 560 points of code. */
const GOD_CLASS = `export class App {\n${Array.from(
  { length: 560 },
  (_, index) => `  m${index}(): number { return ${index}; }\n`,
).join('')}}\n`;
/** 80 logical lines: over a budget of 60, with no finding. */
const OVER_BUDGET = `export function feature(): number {\n${Array.from(
  { length: 78 },
  (_, index) => `  const v${index} = ${index};\n`,
).join('')}  return 0;\n}\n`;

interface Verdict {
  readonly verdict: string;
  readonly total: number;
  readonly findings: readonly string[];
}

function verdictOf(result: Run): Verdict {
  const report = JSON.parse(result.stdout);
  return {
    verdict: report.verdict,
    total: report.cost.total,
    findings: report.findings.map(
      (finding: { ruleId: string; status: string }) => `${finding.ruleId} ${finding.status}`,
    ),
  };
}

useHookTestEnvironment();
let repo: Repo & { remove(): Promise<void> };
let outside: { path: string; remove: () => Promise<void> };
/** AUREUS's own cache folder for this test: outside the repository, as the user's would be. */
let cacheDir: string;
beforeEach(async () => {
  repo = await makeRepo('checkout-caches');
  outside = await makeTempDir('checkout-caches-outside');
  cacheDir = join(outside.path, 'aureus-cache');
});
afterEach(async () => {
  await repo.remove();
  await outside.remove();
});

/** `aureus …` in the repository with `env` over the test's; a variable set to undefined is unset. */
function aureusIn(args: readonly string[], env: Record<string, string | undefined>): Run {
  return run(repo.dir, process.execPath, [BIN, ...args], env);
}

/**
 * The base on main; then, on `feature`, the pull request's files staged (for the hook) and
 * committed (for `check` over main..feature).
 */
function pullRequest(base: Record<string, string>, head: Record<string, string>): void {
  for (const [path, text] of Object.entries(base)) repo.write(path, text);
  repo.commit('base');
  repo.git('checkout', '--quiet', '-b', 'feature');
  for (const [path, text] of Object.entries(head)) repo.write(path, text);
  repo.git('add', '--all', '--force');
}

/** The ways AUREUS is run on the pull request: its hook on the staged change, then check. */
function judgeBothWays(env: Record<string, string | undefined>): { hook: Run; check: Run } {
  const hook = aureusIn(['hook', 'pre-commit'], env);
  repo.git('commit', '--quiet', '--no-verify', '-m', 'pull request');
  const check = aureusIn(['check', '--base', 'main', '--head', 'feature', '--format', 'json'], env);
  return { hook, check };
}

/** The verdict of `check` over the pull request with every cache off. */
function uncachedVerdict(): Verdict {
  const check = aureusIn(['check', '--base', 'main', '--head', 'feature', '--format', 'json'], {
    AUREUS_CACHE_DIR: 'off',
  });
  return verdictOf(check);
}

describe('forged facts committed by a pull request', () => {
  it('do not let a 560-line god class through: the base blob and the head blob, in both layouts', async () => {
    const baseBlob = repo.hashText(APP_BEFORE);
    const headBlob = repo.hashText(GOD_CLASS);
    // The god class's facts claimed for the base's file (so that it seems to be there already),
    // and the base's small file's claimed for the head's.
    const forged = [
      { blobSha: baseBlob, facts: await typeScriptFacts(GOD_CLASS) },
      { blobSha: headBlob, facts: await typeScriptFacts(APP_BEFORE) },
    ];
    pullRequest(
      { '.aureus/policy.yaml': GOD_CLASS_POLICY, 'src/app.ts': APP_BEFORE },
      {
        'src/app.ts': GOD_CLASS,
        ...Object.assign({}, ...CHECKOUT_CACHE_ROOTS.map((root) => forgedFactsFiles(root, forged))),
      },
    );

    const { hook, check } = judgeBothWays({ AUREUS_CACHE_DIR: cacheDir });

    expect(hook.code).toBe(1);
    expect(hook.stdout).toMatch(/new god_class: class App spans 56\d lines of code/);
    expect(check.code).toBe(1);
    const judged = verdictOf(check);
    expect(judged).toMatchObject({ verdict: 'block', findings: ['god_class new'] });
    expect(judged.total).toBeGreaterThan(560);
    expect(uncachedVerdict()).toEqual(judged);
    // Warm, from the cache AUREUS filled itself: the same.
    const again = aureusIn(['check', '--base', 'main', '--head', 'feature', '--format', 'json'], {
      AUREUS_CACHE_DIR: cacheDir,
    });
    expect(verdictOf(again)).toEqual(judged);
    // With the user's cache folder inside the checkout, where the new layout's forgeries lie.
    const inside = aureusIn(['check', '--base', 'main', '--head', 'feature', '--format', 'json'], {
      AUREUS_CACHE_DIR: undefined,
      XDG_CACHE_HOME: join(repo.dir, '.cache'),
    });
    expect(verdictOf(inside)).toEqual(judged);
    // Nothing tracked was rewritten or removed (a doubtful entry used to be deleted).
    expect(repo.git('status', '--porcelain')).toBe('');
  });
});

describe('a forged parsed policy committed by a pull request', () => {
  it('does not replace the base policy’s budget, in check or in the hook', async () => {
    const buildId = await policyBuildId();
    const policyBlob = repo.hashText(SMALL_POLICY);
    const loose = defaultPolicy();
    const forged = { ...loose, budgets: { ...loose.budgets, change: { warn: 1e6, block: 1e6 } } };
    pullRequest(
      { '.aureus/policy.yaml': SMALL_POLICY, 'src/app.ts': APP_BEFORE },
      {
        'src/feature.ts': OVER_BUDGET,
        ...Object.assign(
          {},
          ...CHECKOUT_CACHE_ROOTS.map((root) =>
            forgedPolicyFile(root, policyBlob, buildId, forged),
          ),
        ),
      },
    );

    const { hook, check } = judgeBothWays({ AUREUS_CACHE_DIR: cacheDir });

    expect(hook.code).toBe(1);
    expect(hook.stdout).toContain('budget 60');
    expect(check.code).toBe(1);
    expect(verdictOf(check)).toMatchObject({ verdict: 'block' });
    expect(check.stdout).toContain('over the budget of 60');
    expect(uncachedVerdict()).toEqual(verdictOf(check));
    expect(repo.git('status', '--porcelain')).toBe('');
  });
});

/** The build id that names parsed-policy entries: an attacker learns it by running AUREUS once. */
async function policyBuildId(): Promise<string> {
  const scratch = await makeRepo('policy-build-id');
  const scratchCache = await makeTempDir('policy-build-id-cache');
  try {
    aureus(scratch.dir, ['policy', 'show'], { AUREUS_CACHE_DIR: scratchCache.path });
    const folders = [
      join(scratchCache.path, 'policies'),
      join(scratch.dir, '.aureus', 'local', 'cache', 'policies'),
    ];
    for (const folder of folders.filter((candidate) => existsSync(candidate))) {
      for (const name of readdirSync(folder)) {
        const id = /^built-in-([0-9a-f]+)\.json$/.exec(name)?.[1];
        if (id !== undefined) return id;
      }
    }
    throw new Error('aureus policy show left no parsed built-in policy');
  } finally {
    await scratch.remove();
    await scratchCache.remove();
  }
}

/** The folder git's blob id of `text` is kept in by a facts cache (its first two digits). */
function shardOf(text: string): string {
  const bytes = Buffer.from(text);
  const header = Buffer.from(`blob ${bytes.length}\0`);
  return createHash('sha1')
    .update(Buffer.concat([header, bytes]))
    .digest('hex')
    .slice(0, 2);
}

/**
 * Links a pull request commits where caches were or could be, each to a folder of its own
 * outside the repository; folders nested in a link are in another scenario.
 */
const LINK_SCENARIOS: ReadonlyArray<{
  readonly name: string;
  readonly links: readonly string[];
  /** Run with the user's cache folder (XDG_CACHE_HOME) inside the checkout, else outside. */
  readonly cacheInCheckout?: boolean;
}> = [
  { name: '.aureus', links: ['.aureus'] },
  { name: '.aureus/local', links: ['.aureus/local'] },
  { name: '.aureus/local/cache', links: ['.aureus/local/cache'] },
  {
    name: 'each cache folder',
    links: ['facts', 'texts', 'policies', 'resolutions'].map(
      (folder) => `.aureus/local/cache/${folder}`,
    ),
  },
  {
    name: 'the facts version folder',
    links: [`.aureus/local/cache/facts/${VERSION_FOLDER}`],
  },
  {
    name: 'the folders in it',
    links: ['packs', ...new Set([APP_BEFORE, OVER_BUDGET].map(shardOf))].map(
      (folder) => `.aureus/local/cache/facts/${VERSION_FOLDER}/${folder}`,
    ),
  },
  {
    name: 'the user cache folder inside the checkout',
    links: ['.cache/aureus'],
    cacheInCheckout: true,
  },
  {
    name: 'the folders of the user cache folder inside the checkout',
    links: ['facts', 'texts', 'policies', 'resolutions'].map((folder) => `.cache/aureus/${folder}`),
    cacheInCheckout: true,
  },
];

describe('links committed at the cache folders', () => {
  it.each(LINK_SCENARIOS)(
    'at $name: the same verdict, and nothing written through them',
    ({ links, cacheInCheckout }) => {
      const targets = linkTargets(outside.path, links.length);
      pullRequest(
        { '.aureus/policy.yaml': SMALL_POLICY, 'src/app.ts': APP_BEFORE },
        { 'src/feature.ts': OVER_BUDGET },
      );
      links.forEach((link, index) => {
        rmSync(join(repo.dir, link), { recursive: true, force: true });
        repo.symlink(targets[index] ?? '', link);
      });
      repo.git('add', '--all', '--force');
      const env =
        cacheInCheckout === true
          ? { AUREUS_CACHE_DIR: undefined, XDG_CACHE_HOME: join(repo.dir, '.cache') }
          : { AUREUS_CACHE_DIR: cacheDir };

      const { hook, check } = judgeBothWays(env);

      expect(hook.code).toBe(1);
      expect(hook.stdout).toContain('budget 60');
      expect(check.code).toBe(1);
      expect(verdictOf(check)).toEqual(uncachedVerdict());
      for (const target of targets) expect(contentsOf(target)).toEqual([]);
      expect(repo.git('status', '--porcelain')).toBe('');
    },
  );
});
