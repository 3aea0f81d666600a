import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { protectedPathTest } from '../../src/agent/safety/path-authority.js';
import type { ToolDefinition } from '../../src/agent/tool-contract.js';
import { fileTools } from '../../src/agent/tools/file-tools.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';

useIsolatedGit();

let repo: Repo & { remove(): Promise<void> };
let tools: Map<string, ToolDefinition>;
const tool = (name: string): ToolDefinition => tools.get(name) as ToolDefinition;

beforeAll(async () => {
  repo = await makeRepo('file-tools');
  repo.write('src/a.ts', 'export const a = 1;\nexport const b = 2;\n');
  repo.write('src/long.txt', `${'h'.repeat(300)}${'m'.repeat(500)}${'t'.repeat(300)}`);
  repo.write('src/blob.bin', Buffer.from([1, 0, 2]));
  repo.write('.github/workflows/ci.yml', 'on: push\n');
  repo.symlink('/etc/passwd', 'src/passwd');
  repo.commit('fixture');
  tools = new Map(
    fileTools({
      tree: realpathSync(repo.dir),
      isProtected: protectedPathTest([]),
      maxFileBytes: 10_000,
      maxResultBytes: 600,
    }).map((each) => [each.spec.name, each]),
  );
});

afterAll(() => repo.remove());

describe('file tools', () => {
  it('file_read gives the text, with line numbers on request, truncated head and tail', async () => {
    expect(await tool('file_read').apply({ path: 'src/a.ts' })).toEqual({
      ok: true,
      output: { path: 'src/a.ts', content: 'export const a = 1;\nexport const b = 2;\n' },
    });
    expect(await tool('file_read').apply({ path: 'src/a.ts', line_numbers: true })).toMatchObject({
      output: { content: '    1  export const a = 1;\n    2  export const b = 2;\n    3  ' },
    });
    expect(await tool('file_read').apply({ path: 'src/long.txt' })).toMatchObject({
      output: { content: `${'h'.repeat(300)}…[500 bytes omitted]…${'t'.repeat(300)}` },
    });
    expect(await tool('file_read').apply({ path: 'src/blob.bin' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('binary'),
    });
    expect(await tool('file_read').apply({ path: 'src/passwd' })).toMatchObject({
      ok: false,
      refusedBy: 'path',
    });
  });

  it('list_dir lists a folder, links shown as links, .git left out', async () => {
    expect(await tool('list_dir').apply({ path: '.' })).toEqual({
      ok: true,
      output: {
        path: '',
        entries: [
          { name: '.github', kind: 'folder' },
          { name: 'src', kind: 'folder' },
        ],
        truncated: false,
      },
    });
    expect(await tool('list_dir').apply({ path: 'src' })).toMatchObject({
      output: { entries: expect.arrayContaining([{ name: 'passwd', kind: 'link' }]) },
    });
  });

  it('file_write previews before and after, and writes only on apply', async () => {
    const input = { path: 'src/a.ts', content: 'export const a = 3;\n' };
    expect(await tool('file_write').preview(input)).toEqual({
      kind: 'files',
      effects: [
        {
          path: 'src/a.ts',
          before: 'export const a = 1;\nexport const b = 2;\n',
          after: 'export const a = 3;\n',
        },
      ],
    });
    expect(readFileSync(join(repo.dir, 'src/a.ts'), 'utf8')).toContain('b = 2');
    expect(await tool('file_write').apply(input)).toEqual({
      ok: true,
      output: { path: 'src/a.ts', done: 'file_write' },
    });
    expect(readFileSync(join(repo.dir, 'src/a.ts'), 'utf8')).toBe('export const a = 3;\n');
    expect(await tool('file_write').preview({ path: 'src/none.ts', content: '' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('does not exist'),
    });
    expect(
      await tool('file_write').preview({ path: '.github/workflows/ci.yml', content: '' }),
    ).toMatchObject({ refusedBy: 'path' });
  });

  it('create_file creates a new file and its folders, never over one that exists; file_delete deletes', async () => {
    expect(await tool('create_file').preview({ path: 'src/new/b.ts', content: 'b\n' })).toEqual({
      kind: 'files',
      effects: [{ path: 'src/new/b.ts', before: null, after: 'b\n' }],
    });
    expect(await tool('create_file').apply({ path: 'src/new/b.ts', content: 'b\n' })).toMatchObject(
      { ok: true },
    );
    expect(readFileSync(join(repo.dir, 'src/new/b.ts'), 'utf8')).toBe('b\n');
    expect(await tool('create_file').apply({ path: 'src/new/b.ts', content: 'x' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('already exists'),
    });
    expect(await tool('file_delete').preview({ path: 'src/new/b.ts' })).toEqual({
      kind: 'files',
      effects: [{ path: 'src/new/b.ts', before: 'b\n', after: null }],
    });
    expect(await tool('file_delete').apply({ path: 'src/new/b.ts' })).toMatchObject({ ok: true });
    expect(existsSync(join(repo.dir, 'src/new/b.ts'))).toBe(false);
    expect(tool('file_delete').tier).toBe(2);
  });

  it.each([
    [{}, 'lacks the property "path"'],
    [{ path: 3 }, '"path" must be string'],
    [{ path: 'a', extra: true }, 'unknown property "extra"'],
    ['src/a.ts', 'the input must be object'],
  ])('refuses the malformed input %j in plain words', async (input, words) => {
    for (const name of ['file_read', 'file_write']) {
      expect(await tool(name).preview(input)).toMatchObject({
        ok: false,
        refusedBy: 'input',
        error: expect.stringContaining(words),
      });
    }
  });
});
