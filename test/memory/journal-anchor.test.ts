import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { appendToJournal } from '../../src/memory/journal.js';
import { anchorAt } from '../../src/memory/journal-anchor-file.js';
import { makeTempDir } from '../support/temp-dir.js';

describe("a journal's anchor", () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    dir = await makeTempDir('journal-anchor');
  });
  afterEach(() => dir.remove());

  it('carries the line count forward and matches the file after each append', async () => {
    const journal = join(dir.path, 'j.jsonl');
    const store = anchorAt(join(dir.path, 'anchor', 'j.anchor.json'));
    for (let index = 0; index < 5; index++) {
      const line = await appendToJournal(journal, { index }, { anchor: store });
      expect(await store.read()).toEqual({ lines: index + 1, hash: line.hash });
    }
  });

  it('counts the file again when the tail is torn, so the anchor names the right line', async () => {
    const journal = join(dir.path, 'j.jsonl');
    const store = anchorAt(join(dir.path, 'j.anchor.json'));
    await appendToJournal(journal, { index: 0 }, { anchor: store });
    await appendFile(journal, '{"at":"torn');
    const line = await appendToJournal(journal, { index: 1 }, { anchor: store });
    const lines = (await readFile(journal, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(await store.read()).toEqual({ lines: 3, hash: line.hash });
  });

  it('counts the file again when the anchor was left behind', async () => {
    const journal = join(dir.path, 'j.jsonl');
    const anchorPath = join(dir.path, 'j.anchor.json');
    const store = anchorAt(anchorPath);
    await appendToJournal(journal, { index: 0 }, { anchor: store });
    await appendToJournal(journal, { index: 1 }, {});
    await writeFile(anchorPath, 'not an anchor');
    const line = await appendToJournal(journal, { index: 2 }, { anchor: store });
    expect(await store.read()).toEqual({ lines: 3, hash: line.hash });
  });

  it('keeps its anchor when lines were cut before an append, so the loss stays visible', async () => {
    const journal = join(dir.path, 'j.jsonl');
    const store = anchorAt(join(dir.path, 'j.anchor.json'));
    for (let index = 0; index < 3; index++)
      await appendToJournal(journal, { index }, { anchor: store });
    const anchored = await store.read();
    const lines = (await readFile(journal, 'utf8')).split('\n');
    await writeFile(journal, `${lines.slice(0, 1).join('\n')}\n`);
    await appendToJournal(journal, { index: 3 }, { anchor: store });
    expect(await store.read()).toEqual(anchored);
  });
});
