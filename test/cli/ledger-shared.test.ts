import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sharedLedgerLine } from '../../src/github/shared-ledger.js';
import { GENESIS_HASH } from '../../src/memory/journal-format.js';
import { SHARED_LEDGER_TIP, sharedLedgerTip } from '../../src/memory/shared-ledger-entries.js';
import { isolateGit, makeRepo, type Repo, runGit } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);

let restore: () => Promise<void>;
let origin: Repo & { remove(): Promise<void> };
let clones: { path: string; remove: () => Promise<void> };

function entry(head: string, at: string, verdict: string, prev = GENESIS_HASH) {
  return sharedLedgerLine(
    { headSha: head, at, record: { kind: 'check', head, verdict, cost: { total: 12 } } },
    prev,
  );
}

/** An entry as the ledger written before chaining holds it: linked to nothing. */
function unchainedEntry(head: string, at: string, verdict: string): string {
  return entry(head, at, verdict).text;
}

/** Entries linked one after the other, with the tip naming the last, as the Action writes them. */
function chained(heads: readonly string[]): {
  files: Record<string, string>;
  lines: { path: string; text: string; hash: string }[];
} {
  const lines: { path: string; text: string; hash: string }[] = [];
  let prev = GENESIS_HASH;
  heads.forEach((head, index) => {
    const line = entry(head, `2026-03-0${index + 1}T00:00:00.000Z`, 'pass', prev);
    lines.push({ path: `entries/${head}.json`, ...line });
    prev = line.hash;
  });
  const files = Object.fromEntries(lines.map((line) => [line.path, line.text]));
  const last = lines.at(-1);
  if (last !== undefined) files[SHARED_LEDGER_TIP] = sharedLedgerTip(last.path, last.hash);
  return { files, lines };
}

const CHAIN = ['1', '2', '3', '4', '5'].map((digit) => digit.repeat(40));

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
    const first = entry(SHA_A, '2026-01-01T00:00:00.000Z', 'pass');
    const second = entry(SHA_B, '2026-02-01T00:00:00.000Z', 'block', first.hash);
    writeLedgerBranch({
      [`entries/${SHA_B}.json`]: second.text,
      [`entries/${SHA_A}.json`]: first.text,
      [SHARED_LEDGER_TIP]: sharedLedgerTip(`entries/${SHA_B}.json`, second.hash),
    });
    const clone = cloneOrigin('two');
    const shown = await runCliInProcess(['ledger', 'show', '--shared'], clone);
    expect(shown.code).toBe(0);
    const lines = shown.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^# +WHEN +EVENT +COMMIT +VERDICT +COST +OVERRIDE$/);
    expect(lines[1]).toMatch(/^1 {2}2026-01-01.*check.* {2}aaaaaaaaaaaa {2}pass +12$/);
    expect(lines[2]).toMatch(/block/);
    const verified = await runCliInProcess(['ledger', 'verify', '--shared'], clone);
    expect(verified.stdout).toMatch(
      /refs\/remotes\/origin\/aureus-ledger: 2 entries, every checksum and link verified/,
    );
    expect(verified.code).toBe(0);
  });

  it('answers queries over the shared ledger, and says first when it does not verify', async () => {
    const first = entry(SHA_A, '2026-01-01T00:00:00.000Z', 'pass');
    const second = entry(SHA_B, '2026-02-01T00:00:00.000Z', 'block', first.hash);
    const files: Record<string, string> = {
      [`entries/${SHA_A}.json`]: first.text,
      [`entries/${SHA_B}.json`]: second.text,
      [SHARED_LEDGER_TIP]: sharedLedgerTip(`entries/${SHA_B}.json`, second.hash),
    };
    writeLedgerBranch(files);
    const clone = cloneOrigin('query');
    const blocked = await runCliInProcess(
      ['ledger', 'query', '--shared', '--verdict', 'block', '--since', '2026-01-15'],
      clone,
    );
    expect([blocked.code, blocked.stderr]).toEqual([0, '']);
    const lines = blocked.stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^2 {2}2026-02-01.*check +b{12} {2}block +12$/);
    expect(lines.slice(2)).toEqual(['', '1 of 2 entries match.']);
    delete files[SHARED_LEDGER_TIP];
    writeLedgerBranch(files);
    const tampered = await runCliInProcess(
      ['ledger', 'query', '--shared', '--verdict', 'block'],
      clone,
    );
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toMatch(
      /^(refs\/remotes\/origin\/aureus-ledger:\d: chain: .*\n)*refs\/remotes\/origin\/aureus-ledger:3: chain: tip\.json is missing, yet entries are chained: it was deleted\nrefs\/remotes\/origin\/aureus-ledger does not verify: [^\n]*\n\n# +WHEN/,
    );
    expect(tampered.stdout).toMatch(
      /\n1 of 2 entries match, in a ledger that does not verify\.\n$/,
    );
  });

  it('reports an edited entry and an entry moved to another commit as tampering', async () => {
    const edited = unchainedEntry(SHA_A, '2026-01-01T00:00:00.000Z', 'pass').replace(
      '"pass"',
      '"warn"',
    );
    writeLedgerBranch({
      [`entries/${SHA_A}.json`]: edited,
      [`entries/${SHA_B}.json`]: unchainedEntry(SHA_A, '2026-01-02T00:00:00.000Z', 'pass'),
    });
    const clone = cloneOrigin('tampered');
    const verified = await runCliInProcess(['ledger', 'verify', '--shared'], clone);
    expect(verified.code).toBe(1);
    expect(verified.stdout).toMatch(/checksum: entries\/a+\.json was edited/);
    expect(verified.stdout).toMatch(/chain: entries\/b+\.json holds the entry of another commit/);
  });

  it('reads entries written before the chain as unchained, not damaged, and links the rest', async () => {
    const { files } = chained(CHAIN.slice(0, 2));
    writeLedgerBranch({
      ...files,
      [`entries/${SHA_A}.json`]: unchainedEntry(SHA_A, '2026-01-01T00:00:00.000Z', 'pass'),
      [`entries/${SHA_B}.json`]: unchainedEntry(SHA_B, '2026-02-01T00:00:00.000Z', 'warn'),
    });
    const clone = cloneOrigin('unchained');
    const verified = await runCliInProcess(['ledger', 'verify', '--shared'], clone);
    expect(verified.stdout).toBe(
      'refs/remotes/origin/aureus-ledger: 4 entries, every checksum and link verified (2 written before entries were chained: checksum only).\n',
    );
    expect(verified.code).toBe(0);
  });

  /** Each tampering of a five-entry chain, and what `ledger verify --shared` must say about it. */
  const TAMPERINGS: readonly [string, (files: Record<string, string>) => void, RegExp[]][] = [
    [
      'an entry deleted',
      (files) => {
        delete files[`entries/${CHAIN[2]}.json`];
      },
      [
        /chain: entries\/4{40}\.json follows an entry that is not in the ledger: the entry before it was deleted or rewritten/,
        /chain: entries\/2{40}\.json is followed by no entry, yet it is not the newest/,
      ],
    ],
    [
      'the newest entry deleted',
      (files) => {
        delete files[`entries/${CHAIN[4]}.json`];
      },
      [
        /chain: tip\.json names entries\/5{40}\.json, which is not in the ledger: the newest entry was deleted or rewritten/,
      ],
    ],
    [
      'an entry moved to another place in the chain, its hash recomputed',
      (files) => {
        const first = chained(CHAIN).lines[0];
        const moved = entry(CHAIN[3] ?? '', '2026-03-04T00:00:00.000Z', 'pass', first?.hash);
        files[`entries/${CHAIN[3]}.json`] = moved.text;
      },
      [
        /chain: entries\/4{40}\.json and entries\/2{40}\.json both follow entries\/1{40}\.json: an entry was moved or inserted/,
        /chain: entries\/5{40}\.json follows an entry that is not in the ledger/,
      ],
    ],
    [
      'an entry edited, its hash recomputed',
      (files) => {
        const { lines } = chained(CHAIN);
        const edited = entry(CHAIN[1] ?? '', '2026-03-02T00:00:00.000Z', 'warn', lines[0]?.hash);
        files[`entries/${CHAIN[1]}.json`] = edited.text;
      },
      [
        /chain: entries\/2{40}\.json is followed by no entry, yet it is not the newest: it was rewritten/,
        /chain: entries\/3{40}\.json follows an entry that is not in the ledger/,
      ],
    ],
    [
      'the tip deleted',
      (files) => {
        delete files[SHARED_LEDGER_TIP];
      },
      [/chain: tip\.json is missing, yet entries are chained: it was deleted/],
    ],
  ];

  it.each(TAMPERINGS)('reports %s, exit 1', async (name, tamper, expected) => {
    const { files } = chained(CHAIN);
    const intact = cloneOrigin(`intact-${TAMPERINGS.findIndex(([other]) => other === name)}`);
    writeLedgerBranch(files);
    const before = await runCliInProcess(['ledger', 'verify', '--shared'], intact);
    expect([before.code, before.stdout]).toEqual([
      0,
      'refs/remotes/origin/aureus-ledger: 5 entries, every checksum and link verified.\n',
    ]);
    tamper(files);
    writeLedgerBranch(files);
    const verified = await runCliInProcess(['ledger', 'verify', '--shared'], intact);
    expect(verified.code).toBe(1);
    for (const line of expected) expect(verified.stdout).toMatch(line);
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
