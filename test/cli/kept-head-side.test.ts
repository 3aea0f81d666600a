import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';

const BIN = resolve('bin/aureus.js');

interface Run {
  readonly code: number;
  readonly stdout: string;
}

/** The bundle (the only build that keeps sides), with the cache folder given. */
function aureus(args: readonly string[], cwd: string, cacheDir: string): Promise<Run> {
  const env = { ...process.env, AUREUS_CACHE_DIR: cacheDir };
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env }, (error, stdout) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout });
    });
  });
}

const CHECK = ['check', '--format', 'json'];

let restore: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };

beforeAll(async () => {
  restore = await isolateGit();
  repo = await makeRepo('kept-head-side');
  repo.write(
    '.aureus/policy.yaml',
    [
      'version: 1',
      'budgets:',
      '  change: { warn: 40, block: 50 }',
      '  new_dependencies: 0',
      'paths:',
      '  core: ["src/**"]',
      '',
    ].join('\n'),
  );
  repo.write('package.json', '{ "name": "kept-head", "version": "1.0.0" }\n');
  // The base has a cycle: a finding every side of every check carries.
  repo.write('src/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
  repo.write('src/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
  repo.write('src/grown.ts', 'export const g = 1;\n');
  repo.write('src/e.ts', 'export const e = 1;\n');
  repo.commit('base');
});

afterAll(async () => {
  await repo.remove();
  await restore();
});

/** A run in a cache folder of its own, then again in it (the kept sides), and with none. */
async function keptAndFresh(
  args: readonly string[],
): Promise<{ first: Run; kept: Run; fresh: Run }> {
  const caches = await makeTempDir('kept-head-side-cache');
  const empty = await makeTempDir('kept-head-side-empty');
  try {
    const first = await aureus(args, repo.dir, caches.path);
    const kept = await aureus(args, repo.dir, caches.path);
    const fresh = await aureus(args, repo.dir, empty.path);
    return { first, kept, fresh };
  } finally {
    await caches.remove();
    await empty.remove();
  }
}

/** The kept sides of a cache folder, with their text. */
function sidesOf(cacheDir: string): { file: string; text: string }[] {
  const folder = join(cacheDir, 'sides');
  return readdirSync(folder).map((name) => {
    const file = join(folder, name);
    return { file, text: readFileSync(file, 'utf8') };
  });
}

/**
 * A kept side rewritten by `edit`, with the checksum the cache computes: what only someone who
 * can write the user's own cache folder could do. Used to show that a run reads the kept side.
 */
function rewriteSide(file: string, edit: (side: Record<string, unknown>) => void): void {
  const stored = JSON.parse(readFileSync(file, 'utf8'));
  edit(stored.side);
  const text = JSON.stringify(stored.side);
  const checksum = createHash('sha256').update(text).digest('hex');
  writeFileSync(file, `{"checksum":"${checksum}","side":${text}}\n`);
}

describe('a check re-run on the same head judges by the kept head side', () => {
  it('a clean working tree: one side kept for both, the same report as without caches', async () => {
    const { first, kept, fresh } = await keptAndFresh(CHECK);
    expect(first.code).toBe(0);
    expect(JSON.parse(kept.stdout)).toEqual(JSON.parse(fresh.stdout));
    expect(JSON.parse(first.stdout)).toEqual(JSON.parse(fresh.stdout));
    expect(JSON.parse(kept.stdout).findings).not.toEqual([]);
  });

  it('edits in the working tree: the head side kept too, the same report as without caches', async () => {
    // A second cycle, new at the head, between tracked files, and a dependency over the budget
    // of none.
    repo.write('src/grown.ts', "import { e } from './e.js';\nexport const g = () => e;\n");
    repo.write('src/e.ts', "import { g } from './grown.js';\nexport const e = () => g;\n");
    repo.write(
      'package.json',
      '{ "name": "kept-head", "version": "1.0.0", "dependencies": { "left-pad": "1.3.0" } }\n',
    );
    try {
      const { first, kept, fresh } = await keptAndFresh(CHECK);
      expect(first.code).toBe(1);
      const report = JSON.parse(kept.stdout);
      expect(report).toEqual(JSON.parse(fresh.stdout));
      expect(report).toEqual(JSON.parse(first.stdout));
      const rules = report.findings.map((finding: { ruleId: string }) => finding.ruleId);
      // The rule that reads the change runs on the change, whatever side is kept.
      expect(rules).toEqual(expect.arrayContaining(['circular_dependency', 'dependency_budget']));
    } finally {
      repo.git('checkout', '--quiet', '--', 'src/grown.ts', 'src/e.ts', 'package.json');
    }
  });

  it('a staged change: the re-run reads the kept head side rather than analysing the head', async () => {
    repo.write('src/c.ts', "import { d } from './d.js';\nexport const c = () => d;\n");
    repo.write('src/d.ts', "import { c } from './c.js';\nexport const d = () => c;\n");
    repo.git('add', 'src/c.ts', 'src/d.ts');
    const caches = await makeTempDir('kept-head-side-read');
    try {
      const args = [...CHECK, '--staged'];
      const first = await aureus(args, repo.dir, caches.path);
      const newCycle = (run: Run) =>
        JSON.parse(run.stdout).findings.filter(
          (finding: { status: string; ruleId: string }) =>
            finding.status === 'new' && finding.ruleId === 'circular_dependency',
        );
      expect(newCycle(first)).toHaveLength(1);
      // Both sides kept: the base's and the head's. The head's is the one that has the new cycle.
      const sides = sidesOf(caches.path);
      expect(sides).toHaveLength(2);
      const head = sides.find(({ text }) => text.includes('src/c.ts'));
      if (head === undefined) throw new Error('no kept side has the staged files');
      rewriteSide(head.file, (side) => {
        side.findings = (side.findings as { location?: { path: string } }[]).filter(
          (finding) =>
            finding.location?.path !== 'src/c.ts' && finding.location?.path !== 'src/d.ts',
        );
      });
      // The kept side is what the re-run judges by: no analysis of the head found the cycle.
      expect(newCycle(await aureus(args, repo.dir, caches.path))).toEqual([]);
    } finally {
      await caches.remove();
      repo.git('rm', '--quiet', '--cached', '--', 'src/c.ts', 'src/d.ts');
      repo.git('clean', '--quiet', '-f', '--', 'src');
    }
  });

  it('a kept side without the core size (an older entry) is analysed again, not trusted', async () => {
    const caches = await makeTempDir('kept-head-side-old');
    try {
      const before = await aureus(CHECK, repo.dir, caches.path);
      for (const { file } of sidesOf(caches.path))
        rewriteSide(file, (side) => {
          side.core = undefined;
          side.findings = [];
        });
      const after = await aureus(CHECK, repo.dir, caches.path);
      expect(JSON.parse(after.stdout)).toEqual(JSON.parse(before.stdout));
      expect(JSON.parse(after.stdout).findings).not.toEqual([]);
    } finally {
      await caches.remove();
    }
  });
});
