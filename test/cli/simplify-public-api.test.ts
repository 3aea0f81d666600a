import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isolateGit, makeRepo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

let restoreGit: () => Promise<void>;
const removals: (() => Promise<void>)[] = [];

beforeAll(async () => {
  restoreGit = await isolateGit();
});

afterAll(async () => {
  for (const remove of removals.splice(0)) await remove();
  await restoreGit();
});

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    skipLibCheck: true,
    types: [],
  },
  include: ['src'],
};

/** A library whose `format` module nothing in the repository imports: only its users outside. */
async function library(pkg: unknown, compilerOptions: Record<string, unknown>) {
  const repo = await makeRepo('simplify-public-api');
  removals.push(repo.remove);
  repo.write('.gitignore', '.aureus/local/\n');
  repo.write('package.json', json(pkg));
  repo.write(
    'tsconfig.json',
    json({ ...TSCONFIG, compilerOptions: { ...TSCONFIG.compilerOptions, ...compilerOptions } }),
  );
  repo.write(
    'src/format.ts',
    'export function formatDate(date: Date): string {\n  return date.toISOString().slice(0, 10);\n}\n',
  );
  repo.write(
    'src/internal.ts',
    'export function stale(): number {\n  return 1;\n}\nexport const kept = 2;\n',
  );
  repo.write('src/run.ts', "import { kept } from './internal.js';\n\nconsole.log(kept);\n");
  repo.commit('library');
  return repo;
}

describe('aureus simplify keeps the public API', () => {
  it('never offers to remove what package.json exports, traced from dist/ to src/', async () => {
    const repo = await library(
      {
        name: 'dates',
        type: 'module',
        exports: {
          './format': { types: './dist/format.d.ts', import: './dist/format.js' },
        },
      },
      { outDir: 'dist', rootDir: 'src' },
    );
    const run = await runCliInProcess(['simplify'], repo.dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Remove unused export `stale` (src/internal.ts:1');
    expect(run.stdout).not.toContain('formatDate');
    expect(run.stdout).not.toContain('Public API kept whole');
  });

  it('keeps the whole package when an entry leads nowhere it can read, and says which', async () => {
    const repo = await library(
      { name: 'dates', type: 'module', exports: { './format': './dist/bundle.js' } },
      { noEmit: true },
    );
    const run = await runCliInProcess(['simplify', '--format', 'json'], repo.dir);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      patches: { title: string }[];
      untracedEntries: string[];
    };
    expect(result.patches.map((patch) => patch.title)).toEqual([]);
    expect(result.untracedEntries).toEqual([
      '`package.json` `exports["./format"]` (dist/bundle.js) was not traced to a source file (no tsconfig `outDir`/`rootDir` leads there): every export of its package is kept as public API.',
    ]);
    const text = await runCliInProcess(['simplify'], repo.dir);
    expect(text.stdout).toContain(
      'Public API kept whole (add a tsconfig outDir/rootDir that leads from the entry to its source to narrow it):\n  - `package.json` `exports["./format"]`',
    );
  });
});
