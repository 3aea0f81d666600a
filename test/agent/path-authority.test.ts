import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type PathIntent,
  protectedPathTest,
  resolveRunPath,
} from '../../src/agent/safety/path-authority.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { makeTempDir } from '../support/temp-dir.js';

useIsolatedGit();

let repo: Repo & { remove(): Promise<void> };
let outside: Awaited<ReturnType<typeof makeTempDir>>;
let root: string;
const isProtected = protectedPathTest(['**/CODEOWNERS', 'config/secrets/**']);

beforeAll(async () => {
  repo = await makeRepo('path-authority');
  outside = await makeTempDir('path-authority-outside');
  root = realpathSync(repo.dir);
  repo.write('src/a.ts', 'export const a = 1;\n');
  repo.write('.aureus/policy.yaml', 'version: 1\n');
  repo.write('.github/workflows/x.yml', 'on: push\n');
  repo.write('CODEOWNERS', '* @someone\n');
  repo.symlink('a.ts', 'src/inside-link.ts');
  repo.symlink(outside.path, 'lib');
  repo.symlink('src', 'source');
  repo.commit('fixture');
});

afterAll(async () => {
  await repo.remove();
  await outside.remove();
});

const resolve = (path: unknown, intent: PathIntent = 'read') =>
  resolveRunPath(root, path, intent, isProtected);

describe('resolveRunPath', () => {
  it('accepts a file inside the tree, and a new file under a real folder', async () => {
    expect(await resolve('src/a.ts')).toEqual({
      relative: 'src/a.ts',
      absolute: join(root, 'src', 'a.ts'),
      kind: 'file',
    });
    expect(await resolve('./src//new/b.ts', 'write')).toMatchObject({
      relative: 'src/new/b.ts',
      kind: null,
    });
    expect(await resolve('.')).toMatchObject({ relative: '', kind: 'folder' });
  });

  it.each([
    ['an absolute path', '/etc/passwd', /absolute path/],
    ['a home path', '~/.ssh/id_rsa', /absolute path/],
    ['a .. escape', 'src/../../outside.txt', /steps out with "\.\."/],
    ['a .. that would stay inside', 'src/../src/a.ts', /steps out/],
    ['a NUL character', 'src/a.ts\u0000.png', /control character/],
    ['a newline', 'src/a\n.ts', /control character/],
    ['a backslash', 'src\\a.ts', /backslash/],
    ['a non-string', 42, /not a string/],
    ['.git/config', '.git/config', /\.git entry/],
    ['a nested .git', 'vendor/lib/.GIT/HEAD', /\.git entry/],
    ['a link that stays inside', 'src/inside-link.ts', /src\/inside-link\.ts is a symbolic link/],
    ['a link that leads out', 'lib/anything.txt', /lib is a symbolic link/],
    ['a folder link on the way', 'source/a.ts', /source is a symbolic link/],
  ])('refuses %s, for reads and writes alike', async (_label, path, reason) => {
    for (const intent of ['read', 'write'] as const) {
      const answer = await resolve(path, intent);
      expect(answer).toMatchObject({
        ok: false,
        refusedBy: 'path',
        error: expect.stringMatching(reason),
      });
      expect(answer).toHaveProperty('hint', expect.any(String));
    }
  });

  it.each([
    ['.aureus/policy.yaml'],
    ['.aureus/local/notes.md'],
    ['.github/workflows/x.yml'],
    ['.GitHub/Workflows/new.yml'],
    ['.husky/pre-commit'],
    ['CODEOWNERS'],
    ['config/secrets/prod.env'],
  ])('refuses a write to the protected path %s, but lets it be read', async (path) => {
    expect(await resolve(path, 'write')).toMatchObject({
      ok: false,
      refusedBy: 'path',
      error: expect.stringContaining('protected path'),
    });
    expect(await resolve(path, 'read')).toHaveProperty('relative');
  });

  it('refuses to write the root itself', async () => {
    expect(await resolve('', 'write')).toMatchObject({ ok: false, refusedBy: 'path' });
  });
});
