import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sharedLedgerLine } from '../../src/github/shared-ledger.js';
import { isolateGit, makeRepo, type Repo, runGit } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);

let restore: () => Promise<void>;
let origin: Repo & { remove(): Promise<void> };
let clones: { path: string; remove: () => Promise<void> };

function entry(head: string, at: string, verdict: string): string {
  return sharedLedgerLine({
    headSha: head,
    at,
    record: { kind: 'check', head, verdict, cost: { total: 12 } },
  });
}

/** An origin whose aureus-ledger branch holds the given files, as the Action writes them. */
function writeLedgerBranch(files: Record<string, string>): void {
  if (origin.git('branch', '--list', 'aureus-ledger') !== '')
    origin.git('branch', '--quiet', '--delete', '--force', 'aureus-ledger');
  origin.git('checkout', '--quiet', '--orphan', 'aureus-ledger');
  origin.git('rm', '-rf', '--quiet', '--ignore-unmatch', '.');
  for (const [path, text] of Object.entries(files)) origin.write(path, text);
  origin.commit('ledger');
  origin.git('checkout', '--quiet', 'main');
}

function cloneOrigin(name: string): string {
  runGit(clones.path, ['clone', '--quiet', origin.dir, name]);
  return `${clones.path}/${name}`;
}

beforeAll(async () => {
  restore = await isolateGit();
  origin = await makeRepo('ledger-origin');
  origin.write('README.md', 'code\n');
  origin.commit('code');
  clones = await makeTempDir('ledger-clones');
});

afterAll(async () => {
  await clones.remove();
  await origin.remove();
  await restore();
});

describe('aureus ledger show --shared', () => {
  it('says where the shared ledger comes from when there is none yet', async () => {
    const clone = cloneOrigin('none');
    const run = await runCliInProcess(['ledger', 'show', '--shared'], clone);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/there is no shared ledger: origin has no aureus-ledger branch/);
    expect(run.stderr).toMatch(/To resolve, the AUREUS Action writes it/);
  });

  it('fetches the aureus-ledger branch and lists its entries oldest first', async () => {
    writeLedgerBranch({
      [`entries/${SHA_B}.json`]: entry(SHA_B, '2026-02-01T00:00:00.000Z', 'block'),
      [`entries/${SHA_A}.json`]: entry(SHA_A, '2026-01-01T00:00:00.000Z', 'pass'),
    });
    const clone = cloneOrigin('two');
    const shown = await runCliInProcess(['ledger', 'show', '--shared'], clone);
    expect(shown.code).toBe(0);
    const lines = shown.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^#1 {2}2026-01-01.*check {2}pass {2}cost 12 {2}aaaaaaaaaaaa$/);
    expect(lines[1]).toMatch(/block/);
    const verified = await runCliInProcess(['ledger', 'verify', '--shared'], clone);
    expect(verified.stdout).toMatch(
      /refs\/remotes\/origin\/aureus-ledger: 2 entries, every checksum and link verified/,
    );
    expect(verified.code).toBe(0);
  });

  it('reports an edited entry and an entry moved to another commit as tampering', async () => {
    const edited = entry(SHA_A, '2026-01-01T00:00:00.000Z', 'pass').replace('"pass"', '"warn"');
    writeLedgerBranch({
      [`entries/${SHA_A}.json`]: edited,
      [`entries/${SHA_B}.json`]: entry(SHA_A, '2026-01-02T00:00:00.000Z', 'pass'),
    });
    const clone = cloneOrigin('tampered');
    const verified = await runCliInProcess(['ledger', 'verify', '--shared'], clone);
    expect(verified.code).toBe(1);
    expect(verified.stdout).toMatch(/checksum: entries\/a+\.json was edited/);
    expect(verified.stdout).toMatch(/chain: entries\/b+\.json holds the entry of another commit/);
  });

  it('refuses --remote without --shared and --shared with --file', async () => {
    const clone = cloneOrigin('options');
    expect((await runCliInProcess(['ledger', 'show', '--remote', 'origin'], clone)).stderr).toMatch(
      /--remote goes with --shared/,
    );
    expect((await runCliInProcess(['ledger', 'show', '--shared', '--file', 'x'], clone)).code).toBe(
      2,
    );
  });
});
