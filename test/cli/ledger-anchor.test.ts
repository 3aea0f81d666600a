import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { appendToAppLedger, appLedgerPath } from '../../src/memory/app-ledger.js';
import { anchorFilePath } from '../../src/memory/journal-anchor-file.js';
import { ledgerAnchorMarker } from '../../src/memory/ledger-anchor-marker.js';
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

describe("the App's ledger checked against the anchor its check run carries", () => {
  /**
   * An App data folder backed up after two checks, then a third check whose check run carried
   * `marker`; the folder is then restored from the backup: file and anchor beside it agree
   * with each other, and only the check run still knows about the third line.
   */
  async function restoredDataDir() {
    const data = await makeTempDir('app-ledger-restored');
    const ledger = appLedgerPath(data.path, 42);
    for (const head of ['a', 'b'])
      await appendToAppLedger(data.path, 42, `pull_request:${head}`, { kind: 'check', head });
    await copyFile(ledger, `${ledger}.bak`);
    await copyFile(anchorFilePath(ledger), `${anchorFilePath(ledger)}.bak`);
    const third = await appendToAppLedger(data.path, 42, 'pull_request:c', { kind: 'check' });
    return { data, ledger, marker: ledgerAnchorMarker(third.anchor), anchor: third.anchor };
  }

  it('passes with the marker, or its lines:hash, while the file holds the line', async () => {
    const { data, ledger, marker, anchor } = await restoredDataDir();
    try {
      expect(marker).toBe(`<!-- aureus:ledger-anchor 3:${anchor.hash} -->`);
      for (const given of [marker, `3:${anchor.hash}`]) {
        const run = await runCliInProcess(
          ['ledger', 'verify', '--file', ledger, '--anchor', given],
          data.path,
        );
        expect(run.stdout).toBe('ledger/42.jsonl: 3 entries, every checksum and link verified.\n');
        expect(run.code).toBe(0);
      }
    } finally {
      await data.remove();
    }
  });

  it('exits 1 after a restore that lost the last line, which the anchor beside it misses', async () => {
    const { data, ledger, marker } = await restoredDataDir();
    try {
      await copyFile(`${ledger}.bak`, ledger);
      await copyFile(`${anchorFilePath(ledger)}.bak`, anchorFilePath(ledger));
      const beside = await runCliInProcess(['ledger', 'verify', '--file', ledger], data.path);
      expect(beside.code).toBe(0);
      const run = await runCliInProcess(
        ['ledger', 'verify', '--file', ledger, '--anchor', marker],
        data.path,
      );
      expect(run.stdout).toContain(
        'ledger/42.jsonl: the ledger has 2 line(s), but the anchor records 3 line(s) ending with hash',
      );
      expect(run.stdout).toContain('its last 1 line(s) were deleted');
      expect(run.stdout).toContain(
        'restore the ledger file from a backup taken after the check run',
      );
      expect(run.code).toBe(1);
    } finally {
      await data.remove();
    }
  });

  it('exits 1 when the data folder lost the file', async () => {
    const { data, ledger, marker } = await restoredDataDir();
    try {
      await rm(ledger);
      const run = await runCliInProcess(
        ['ledger', 'verify', '--file', ledger, '--anchor', marker],
        data.path,
      );
      expect(run.stdout).toContain(
        'the ledger file is missing, but the anchor records 3 line(s) ending with hash',
      );
      expect(run.stdout).toContain('all its lines were lost');
      expect(run.code).toBe(1);
    } finally {
      await data.remove();
    }
  });

  it("gives the new line's own place when the ledger had lost lines before the append", async () => {
    const { data, ledger } = await restoredDataDir();
    try {
      // Lines lost with no restore of the anchor beside: that anchor stays, and keeps failing.
      const lines = (await readFile(ledger, 'utf8')).trimEnd().split('\n');
      await writeFile(ledger, `${lines[0]}\n`);
      const fourth = await appendToAppLedger(data.path, 42, 'pull_request:d', { kind: 'check' });
      expect(fourth.anchor.lines).toBe(2);
      const given = ledgerAnchorMarker(fourth.anchor);
      const run = await runCliInProcess(
        ['ledger', 'verify', '--file', ledger, '--anchor', given],
        data.path,
      );
      expect(run.code).toBe(0);
      const beside = await runCliInProcess(['ledger', 'verify', '--file', ledger], data.path);
      expect(beside.stdout).toContain('the anchor records 3 line(s)');
      expect(beside.code).toBe(1);
    } finally {
      await data.remove();
    }
  });

  it('exits 2 on an anchor that is not one, or without a file to check', async () => {
    const { data, ledger } = await restoredDataDir();
    try {
      const bad = await runCliInProcess(
        ['ledger', 'verify', '--file', ledger, '--anchor', '3:abc'],
        data.path,
      );
      expect(bad.stderr).toContain('--anchor "3:abc" is not a ledger anchor.');
      expect(bad.code).toBe(2);
      const alone = await runCliInProcess(['ledger', 'verify', '--anchor', '3:abc'], data.path);
      expect(alone.stderr).toContain("name the App's ledger file with --file");
      expect(alone.code).toBe(2);
    } finally {
      await data.remove();
    }
  });
});
