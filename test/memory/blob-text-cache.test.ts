import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
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
    const file = join(root, '.aureus', 'local', 'cache', 'texts', id.slice(0, 2), id);
    await writeFile(file, '{ "planted": true }\n');
    expect(await cache.get(id)).toBeUndefined();
    await cache.put('../../escape', 'x');
    expect(await cache.get('../../escape')).toBeUndefined();
  });
});
