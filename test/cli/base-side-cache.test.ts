import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';

const BIN = resolve('bin/aureus.js');

/** The bundle, with a cache folder of this file's own (`fresh` for one without any). */
function aureus(
  args: readonly string[],
  cwd: string,
  cacheDir = caches.path,
): Promise<{ code: number; stdout: string }> {
  const env = { ...process.env, AUREUS_CACHE_DIR: cacheDir };
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env }, (error, stdout) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout });
    });
  });
}

let restore: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
let caches: { path: string; remove(): Promise<void> };
const sides = () => join(caches.path, 'sides');
const CHECK = ['check', '--staged', '--format', 'json'];

beforeAll(async () => {
  restore = await isolateGit();
  caches = await makeTempDir('base-side-cache');
  repo = await makeRepo('base-side-cache');
  repo.write(
    '.aureus/policy.yaml',
    'version: 1\nbudgets:\n  change:\n    warn: 40\n    block: 50\n',
  );
  // The base has a cycle (a baseline finding) and a file the change grows.
  repo.write('src/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
  repo.write('src/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
  repo.write('src/grown.ts', 'export const g = 1;\n');
  repo.commit('base');
  repo.write('src/grown.ts', 'export const g = 1;\nexport const h = 2;\n');
  // The change closes a second cycle: a new finding at the head.
  repo.write('src/c.ts', "import { d } from './d.js';\nexport const c = () => d;\n");
  repo.write('src/d.ts', "import { c } from './c.js';\nexport const d = () => c;\n");
  repo.git('add', '-A');
});

afterAll(async () => {
  await repo.remove();
  await caches.remove();
  await restore();
});

/** The bundled CLI keeps the base side of a check and judges the next check on that base by it. */
describe('the kept base sides of the aureus command', () => {
  it('keeps the base side, and a check by the kept side reports what the analysis did', async () => {
    const first = await aureus(CHECK, repo.dir);
    expect(first.code).toBe(1);
    // The base's, and the staged head's: the base of the commit it becomes.
    expect(readdirSync(sides())).toHaveLength(2);
    const kept = await aureus(CHECK, repo.dir);
    expect(kept.code).toBe(1);
    expect(JSON.parse(kept.stdout)).toEqual(JSON.parse(first.stdout));
    const report = JSON.parse(kept.stdout);
    expect(report.verdict).toBe('block');
    const statuses = report.findings.map((finding: { status: string }) => finding.status);
    expect(statuses).toEqual(expect.arrayContaining(['baseline', 'new']));
  });

  it('reports what a run with no cache at all reports', async () => {
    const empty = await makeTempDir('base-side-cache-empty');
    try {
      const alone = await aureus(CHECK, repo.dir, empty.path);
      const kept = await aureus(CHECK, repo.dir);
      expect(JSON.parse(kept.stdout)).toEqual(JSON.parse(alone.stdout));
    } finally {
      await empty.remove();
    }
  });

  it('never trusts a kept side whose checksum does not match: it analyses the base again', async () => {
    const before = await aureus(CHECK, repo.dir);
    const files = readdirSync(sides()).map((entry) => join(sides(), entry));
    // The base's cycle removed from the kept findings, the old checksum left in place.
    for (const file of files) {
      const stored = JSON.parse(readFileSync(file, 'utf8'));
      stored.side.findings = [];
      writeFileSync(file, `${JSON.stringify(stored)}\n`);
    }
    const run = await aureus(CHECK, repo.dir);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(before.stdout));
    for (const file of files)
      expect(JSON.parse(readFileSync(file, 'utf8')).side.findings).not.toEqual([]);
  });

  it('judges by the kept side when its checksum matches, without analysing the base again', async () => {
    const before = await aureus(CHECK, repo.dir);
    const statusesOf = (stdout: string): string[] =>
      JSON.parse(stdout).findings.map((finding: { status: string }) => finding.status);
    expect(statusesOf(before.stdout)).toContain('baseline');
    const files = readdirSync(sides()).map((entry) => join(sides(), entry));
    const originals = files.map((file) => readFileSync(file, 'utf8'));
    try {
      // Kept sides that differ visibly from the repository: without its cycle, with a checksum
      // that verifies. The head's side is kept as the base's is (kept-head-side.test.ts), so a
      // check that reads them finds no finding at all; one that analysed would find the cycle.
      for (const file of files) {
        const stored = JSON.parse(readFileSync(file, 'utf8'));
        stored.side.findings = [];
        const text = JSON.stringify(stored.side);
        const sum = createHash('sha256').update(text).digest('hex');
        writeFileSync(file, `{"checksum":"${sum}","side":${text}}\n`);
      }
      const run = await aureus(CHECK, repo.dir);
      expect(statusesOf(run.stdout)).toEqual([]);
    } finally {
      for (const [at, file] of files.entries()) writeFileSync(file, originals[at] ?? '');
    }
  });

  it('keeps another side for another policy', async () => {
    await aureus([...CHECK, '--policy', join(repo.dir, '.aureus/policy.yaml')], repo.dir);
    const loose = join(caches.path, 'loose.yaml');
    writeFileSync(loose, 'version: 1\nbudgets:\n  change:\n    warn: 400\n    block: 500\n');
    const count = readdirSync(sides()).length;
    await aureus([...CHECK, '--policy', loose], repo.dir);
    expect(readdirSync(sides()).length).toBeGreaterThan(count);
  });

  it('judges the next commit by the side its staged change kept', async () => {
    repo.git('commit', '--quiet', '--no-verify', '-m', 'the staged change');
    repo.write('src/grown.ts', 'export const g = 1;\nexport const h = 2;\nexport const i = 3;\n');
    repo.git('add', '-A');
    const count = readdirSync(sides()).length;
    const kept = await aureus(CHECK, repo.dir);
    // Only the new head is kept: the base was kept when it was staged.
    expect(readdirSync(sides())).toHaveLength(count + 1);
    const empty = await makeTempDir('base-side-cache-next');
    try {
      const alone = await aureus(CHECK, repo.dir, empty.path);
      expect(JSON.parse(kept.stdout)).toEqual(JSON.parse(alone.stdout));
      expect(JSON.parse(kept.stdout).findings).not.toEqual([]);
    } finally {
      await empty.remove();
    }
  });
});
