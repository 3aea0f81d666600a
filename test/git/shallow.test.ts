import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readChange } from '../../src/git/index.js';
import { AureusError } from '../../src/model/errors.js';
import { isolateGit, makeRepo, type Repo, repoAt, runGit } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * A bare "remote" with main (m1..m3) and a feature branch forked at m2 (f1, f2), cloned with
 * `--depth 1` over file:// as actions/checkout does by default: the base is not in the clone.
 */
let restore: () => Promise<void>;
let origin: Repo & { remove(): Promise<void> };
let clones: { path: string; remove: () => Promise<void> };
let bareUrl: string;
let forkPoint: string;
let mainTip: string;
let featureTip: string;
let cloneCount = 0;

beforeAll(async () => {
  restore = await isolateGit();
  origin = await makeRepo('shallow-origin');
  origin.write('base.txt', 'm1\n');
  origin.commit('m1');
  origin.write('base.txt', 'm2\n');
  forkPoint = origin.commit('m2');
  origin.git('checkout', '--quiet', '-b', 'feature');
  origin.write('feature.txt', 'f1\n');
  origin.commit('f1');
  origin.write('feature.txt', 'f1\nf2\n');
  featureTip = origin.commit('f2');
  origin.git('checkout', '--quiet', 'main');
  origin.write('main-only.txt', 'm3\n');
  mainTip = origin.commit('m3');
  clones = await makeTempDir('shallow-clones');
  runGit(clones.path, ['clone', '--quiet', '--bare', origin.dir, 'origin.git']);
  bareUrl = `file://${clones.path}/origin.git`;
});

afterAll(async () => {
  await clones.remove();
  await origin.remove();
  await restore();
});

function shallowClone(): Repo {
  cloneCount += 1;
  const name = `clone-${cloneCount}`;
  runGit(clones.path, ['clone', '--quiet', '--depth', '1', '--branch', 'feature', bareUrl, name]);
  const clone = repoAt(`${clones.path}/${name}`);
  expect(clone.git('rev-parse', '--is-shallow-repository')).toBe('true');
  expect(() => clone.git('cat-file', '-e', `${mainTip}^{commit}`)).toThrow();
  return clone;
}

describe('a shallow clone whose range base is missing', () => {
  it('fetches the base from origin and reads the change', async () => {
    const clone = shallowClone();
    const change = await readChange(clone.dir, { kind: 'range', base: mainTip, head: 'HEAD' });
    expect(change).toMatchObject({ baseSha: mainTip, headSha: featureTip, complete: true });
    expect(change.files.map((f) => [f.path, f.status])).toEqual([
      ['feature.txt', 'added'],
      ['main-only.txt', 'deleted'],
    ]);
    expect(change.notes).toEqual([expect.stringContaining(`Fetched the base commit ${mainTip}`)]);
  });

  it('deepens the clone until the merge base is found for a three-dot range', async () => {
    const clone = shallowClone();
    const change = await readChange(clone.dir, {
      kind: 'range',
      base: mainTip,
      head: 'HEAD',
      threeDot: true,
    });
    expect(change.baseSha).toBe(forkPoint);
    expect(change.files.map((f) => [f.path, f.status, f.head?.text])).toEqual([
      ['feature.txt', 'added', 'f1\nf2\n'],
    ]);
  });

  it('fetches the missing parent of a shallow commit instead of calling it a root commit', async () => {
    const clone = shallowClone();
    const change = await readChange(clone.dir, { kind: 'commit', ref: 'HEAD' });
    expect(change.baseSha).not.toBeNull();
    expect(change.files.map((f) => [f.path, f.status])).toEqual([['feature.txt', 'modified']]);
  });

  it('fails with exit 2 and a fetch-depth hint when there is no remote to fetch from', async () => {
    const clone = shallowClone();
    clone.git('remote', 'remove', 'origin');
    const reading = readChange(clone.dir, { kind: 'range', base: mainTip, head: 'HEAD' });
    await expect(reading).rejects.toBeInstanceOf(AureusError);
    await expect(reading).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/base commit .* is missing from this shallow clone/),
      hint: expect.stringContaining('fetch-depth: 0'),
    });
  });

  it('fails with exit 2 when the remote cannot provide the base', async () => {
    const clone = shallowClone();
    clone.git('remote', 'set-url', 'origin', `file://${clones.path}/no-such-remote.git`);
    await expect(
      readChange(clone.dir, { kind: 'range', base: mainTip, head: 'HEAD' }),
    ).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/missing from this shallow clone, and fetching it failed/),
      hint: expect.stringContaining('fetch-depth: 0'),
    });
  });

  it('does not fetch when fetchMissing is false', async () => {
    const clone = shallowClone();
    await expect(
      readChange(
        clone.dir,
        { kind: 'range', base: mainTip, head: 'HEAD' },
        { fetchMissing: false },
      ),
    ).rejects.toMatchObject({ exitCode: 2, hint: expect.stringContaining('fetch-depth: 0') });
    expect(() => clone.git('cat-file', '-e', `${mainTip}^{commit}`)).toThrow();
  });
});
