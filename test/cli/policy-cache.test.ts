import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';

const BIN = resolve('bin/aureus.js');

/** The bundle, with a cache folder of this file's own. */
function aureus(args: readonly string[], cwd: string): Promise<{ code: number; stdout: string }> {
  const env = { ...process.env, AUREUS_CACHE_DIR: caches.path };
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env }, (error, stdout) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout });
    });
  });
}

let restore: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
let caches: { path: string; remove(): Promise<void> };
const policies = () => join(caches.path, 'policies');

beforeAll(async () => {
  restore = await isolateGit();
  caches = await makeTempDir('policy-cache');
  repo = await makeRepo('policy-cache');
  repo.write('.aureus/policy.yaml', 'version: 1\nbudgets:\n  change:\n    warn: 4\n    block: 5\n');
  repo.write('src/a.ts', 'export const a = 1;\n');
  repo.commit('base');
  repo.write(
    'src/b.ts',
    Array.from({ length: 12 }, (_, i) => `export const b${i} = ${i};`).join('\n'),
  );
  repo.git('add', '-A');
});

afterAll(async () => {
  await repo.remove();
  await caches.remove();
  await restore();
});

/** The bundled CLI (bin/aureus.js) keeps the parse of HEAD's policy by its blob id. */
describe('the parsed-policy cache of the aureus command', () => {
  it('stores the parse of the committed policy and judges by it on the next run', async () => {
    const first = await aureus(['check', '--staged'], repo.dir);
    expect(first.code).toBe(1);
    const [entry] = readdirSync(policies());
    const blob = repo.git('rev-parse', 'HEAD:.aureus/policy.yaml');
    expect(entry).toMatch(new RegExp(`^${blob}-[0-9a-f]{16}\\.json$`));
    const again = await aureus(['check', '--staged'], repo.dir);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('over the budget of 5');
  });

  it('never trusts an entry whose checksum does not match: it parses the policy again', async () => {
    const [entry = ''] = readdirSync(policies());
    const file = join(policies(), entry);
    // A loosened budget planted in the cache, with the old checksum.
    writeFileSync(file, readFileSync(file, 'utf8').replace('"block":5', '"block":500000'));
    const run = await aureus(['check', '--staged'], repo.dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('over the budget of 5');
    expect(readFileSync(file, 'utf8')).toContain('"block":5}');
  });

  it('never trusts an entry others may write, however good its checksum', async () => {
    const [entry = ''] = readdirSync(policies());
    const file = join(policies(), entry);
    const text = readFileSync(file, 'utf8');
    const policy = JSON.parse(text).policy;
    policy.budgets.change.block = 500000;
    const body = JSON.stringify(policy);
    const checksum = createHash('sha256').update(body).digest('hex');
    writeFileSync(file, `{"checksum":"${checksum}","policy":${body}}\n`);
    chmodSync(file, 0o666);
    const run = await aureus(['check', '--staged'], repo.dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('over the budget of 5');
  });
});

/** A policy file in the working tree (analyze, simplify, policy show) is kept by its bytes' hash. */
describe('the parsed-policy cache for a policy file', () => {
  const blockOf = (stdout: string) => /^\s+block: (\d+)$/m.exec(stdout)?.[1];
  const textEntries = () => readdirSync(policies()).filter((name) => name.startsWith('text-'));

  it('parses a file once, and parses it again as soon as its bytes change', async () => {
    const first = await aureus(['policy', 'show'], repo.dir);
    expect(blockOf(first.stdout)).toBe('5');
    expect(textEntries()).toHaveLength(1);
    expect(blockOf((await aureus(['policy', 'show'], repo.dir)).stdout)).toBe('5');
    expect(textEntries()).toHaveLength(1);

    const path = join(repo.dir, '.aureus', 'policy.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace('block: 5', 'block: 7'));
    expect(blockOf((await aureus(['policy', 'show'], repo.dir)).stdout)).toBe('7');
    expect(textEntries()).toHaveLength(2);
  });

  it('keeps nothing for a file that does not validate: it fails every time', async () => {
    const path = join(repo.dir, '.aureus', 'policy.yaml');
    writeFileSync(path, 'version: 1\nbudgets:\n  change:\n    warn: 9\n    block: 5\n');
    for (let run = 0; run < 2; run++)
      expect((await aureus(['policy', 'show'], repo.dir)).code).toBe(2);
    expect(textEntries()).toHaveLength(2);
  });
});
