import { readFile, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { appendToAppLedger, appLedgerPath } from '../../src/memory/app-ledger.js';
import { storePaths } from '../../src/memory/store-paths.js';
import { isolateGit, makeRepo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('the local ledger is anchored in its git folder', () => {
  let restoreGit: () => Promise<void>;
  beforeAll(async () => {
    restoreGit = await isolateGit();
  });
  afterAll(() => restoreGit());

  /** A repository whose ledger holds three checks, each appended by `aureus check --staged`. */
  async function ledgerOfThree() {
    const repo = await makeRepo('ledger-anchor');
    repo.write('a.ts', 'export const a = 1;\n');
    repo.commit('first');
    for (const value of [2, 3, 4]) {
      repo.write('a.ts', `export const a = ${value};\n`);
      repo.git('add', 'a.ts');
      const check = await runCliInProcess(['check', '--staged'], repo.dir);
      expect(check.code).toBe(0);
    }
    return { repo, ledger: storePaths(repo.dir).ledger };
  }

  it('verifies a fresh repository as clean: no ledger yet', async () => {
    const repo = await makeRepo('ledger-fresh');
    try {
      const run = await runCliInProcess(['ledger', 'verify'], repo.dir);
      expect(run.stdout).toBe('.aureus/local/ledger.jsonl: no ledger yet.\n');
      expect(run.code).toBe(0);
    } finally {
      await repo.remove();
    }
  });

  it('exits 1 naming the anchor when the last 2 lines were deleted', async () => {
    const { repo, ledger } = await ledgerOfThree();
    try {
      expect((await runCliInProcess(['ledger', 'verify'], repo.dir)).code).toBe(0);
      const lines = (await readFile(ledger, 'utf8')).trimEnd().split('\n');
      await writeFile(ledger, `${lines[0]}\n`);
      const run = await runCliInProcess(['ledger', 'verify'], repo.dir);
      expect(run.stdout).toContain(
        'the ledger has 1 line(s), but the anchor records 3 line(s) ending with hash',
      );
      expect(run.stdout).toContain('.git/aureus/ledger.anchor.json');
      expect(run.code).toBe(1);
    } finally {
      await repo.remove();
    }
  });

  it('exits 1 when the whole file was deleted', async () => {
    const { repo, ledger } = await ledgerOfThree();
    try {
      await rm(ledger);
      const run = await runCliInProcess(['ledger', 'verify'], repo.dir);
      expect(run.stdout).toContain('the ledger file is missing, but the anchor records 3 line(s)');
      expect(run.code).toBe(1);
    } finally {
      await repo.remove();
    }
  });

  it("exits 1 when the App's ledger lost its tail, from the anchor beside it", async () => {
    const data = await makeTempDir('app-ledger-anchor');
    try {
      for (const head of ['a', 'b', 'c'])
        await appendToAppLedger(data.path, 42, `push:${head}`, { kind: 'check', head });
      const ledger = appLedgerPath(data.path, 42);
      const lines = (await readFile(ledger, 'utf8')).trimEnd().split('\n');
      await writeFile(ledger, `${lines.slice(0, 2).join('\n')}\n`);
      const run = await runCliInProcess(['ledger', 'verify', '--file', ledger], data.path);
      expect(run.stdout).toContain('the ledger has 2 line(s), but the anchor records 3 line(s)');
      expect(run.stdout).toContain('rm ledger/42.anchor.json');
      expect(run.code).toBe(1);
    } finally {
      await data.remove();
    }
  });
});
