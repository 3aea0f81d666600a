import { createHash } from 'node:crypto';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { createBlobTextCache } from '../../src/memory/blob-text-cache.js';
import { makeTempDir } from '../support/temp-dir.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function blobId(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

async function store(): Promise<string> {
  const temp = await makeTempDir('blob-texts');
  cleanups.push(temp.remove);
  return temp.path;
}

describe('createBlobTextCache', () => {
  it('gives back a text by its blob id, across cache objects', async () => {
    const root = await store();
    const text = '{ "name": "café" }\n';
    await createBlobTextCache(root).put(blobId(text), text);
    expect(await createBlobTextCache(root).get(blobId(text))).toBe(text);
    expect(await createBlobTextCache(root).get(blobId('other'))).toBeUndefined();
  });

  it('misses an entry that does not hash to its id, or is not named by one', async () => {
    const root = await store();
    const cache = createBlobTextCache(root);
    const id = blobId('{}\n');
    await cache.put(id, '{}\n');
    const file = join(root, 'texts', id.slice(0, 2), id);
    await writeFile(file, '{ "planted": true }\n');
    expect(await cache.get(id)).toBeUndefined();
    await cache.put('../../escape', 'x');
    expect(await cache.get('../../escape')).toBeUndefined();
  });

  it('misses an entry others may write, and one that is a link', async () => {
    const root = await store();
    const cache = createBlobTextCache(root);
    const [open, linked] = ['{ "a": 1 }\n', '{ "b": 2 }\n'];
    await cache.put(blobId(open), open);
    await chmod(join(root, 'texts', blobId(open).slice(0, 2), blobId(open)), 0o666);
    expect(await cache.get(blobId(open))).toBeUndefined();
    const planted = join(root, 'planted');
    await writeFile(planted, linked, { mode: 0o600 });
    await mkdir(join(root, 'texts', blobId(linked).slice(0, 2)), { recursive: true });
    await symlink(planted, join(root, 'texts', blobId(linked).slice(0, 2), blobId(linked)));
    expect(await cache.get(blobId(linked))).toBeUndefined();
  });

  it('keeps nothing without a cache folder (caching off)', async () => {
    const cache = createBlobTextCache(undefined);
    await cache.put(blobId('{}\n'), '{}\n');
    expect(await cache.get(blobId('{}\n'))).toBeUndefined();
  });
});
