import { describe, expect, it } from '@jest/globals';
import { duplicateFunctionPass } from '../../src/reflexion/passes/duplicate-function.js';
import { singleImplementationPass } from '../../src/reflexion/passes/single-implementation.js';
import { staticOnlyClassPass } from '../../src/reflexion/passes/static-only-class.js';
import { unusedCodePass } from '../../src/reflexion/passes/unused-code.js';
import type { Proposal } from '../../src/reflexion/proposal.js';
import { fixtureContext, runPass } from './support/fixture-project.js';

const lines = (...text: string[]): string => `${text.join('\n')}\n`;
const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
const titles = (proposals: readonly Proposal[]) =>
  proposals.map(({ title, path }) => `${path}: ${title}`);

/** A build from src/ to dist/, as most packages that publish compiled TypeScript have. */
const BUILD_TO_DIST = json({ compilerOptions: { outDir: 'dist', rootDir: 'src' } });

/** Two functions nothing in the repository calls: only the package.json can say who does. */
const unused = (first: string, second: string) =>
  lines(
    `export function ${first}(): number {`,
    '  return 1;',
    '}',
    `export function ${second}(): number {`,
    '  return 2;',
    '}',
  );

describe('public API: what package.json publishes is never removed', () => {
  it('exports: a subpath with nested conditions, a pattern, a null exclusion', () => {
    const files = {
      'package.json': json({
        name: 'dates',
        exports: {
          './format': {
            import: { types: './dist/format.d.ts', default: './dist/format.js' },
            require: './dist/format.cjs',
          },
          './plugins/*': './dist/plugins/*.js',
          './plugins/internal/*': null,
        },
      }),
      'tsconfig.json': BUILD_TO_DIST,
      'src/format.ts': unused('formatDate', 'formatTime'),
      'src/plugins/csv.ts': unused('parseCsv', 'writeCsv'),
      'src/plugins/internal/cache.ts': unused('clearCache', 'fillCache'),
      'src/util.ts': unused('unusedHelper', 'otherHelper'),
    };
    expect(titles(runPass(unusedCodePass, files))).toEqual([
      'src/plugins/internal/cache.ts: Remove 2 unused exports from `src/plugins/internal/cache.ts`',
      'src/util.ts: Remove 2 unused exports from `src/util.ts`',
    ]);
  });

  it('main and types in an outDir, the source root inferred from include', () => {
    const files = {
      'package.json': json({ name: 'client', main: './lib/api.js', types: './lib/api.d.ts' }),
      'tsconfig.json': json({ compilerOptions: { outDir: 'lib' }, include: ['src'] }),
      'src/api.ts': unused('request', 'retry'),
      'src/internal.ts': unused('stale', 'older'),
    };
    expect(titles(runPass(unusedCodePass, files))).toEqual([
      'src/internal.ts: Remove 2 unused exports from `src/internal.ts`',
    ]);
  });

  it('bin: a command built from src/, named in a map', () => {
    const files = {
      'package.json': json({ name: 'tool', bin: { tool: './dist/cli.js' } }),
      'tsconfig.json': BUILD_TO_DIST,
      'src/cli.ts': unused('run', 'usage'),
      'src/internal.ts': unused('stale', 'older'),
    };
    expect(titles(runPass(unusedCodePass, files))).toEqual([
      'src/internal.ts: Remove 2 unused exports from `src/internal.ts`',
    ]);
  });

  const barrel = {
    'package.json': json({ name: 'kit', exports: { '.': './dist/api.js' } }),
    'tsconfig.json': BUILD_TO_DIST,
    'src/api.ts': lines(
      "export * from './core.js';",
      "export { helper as publicHelper } from './helpers.js';",
      "export * as extras from './extras.js';",
      'export function version(): string {',
      "  return '1';",
      '}',
      "export const name = 'kit';",
    ),
    'src/core.ts': lines("export * from './deep.js';"),
    'src/deep.ts': lines(
      'export function clamp(value: number): number {',
      '  return Math.min(Math.max(value, 0), 1);',
      '}',
      'export function lerp(from: number, to: number, at: number): number {',
      '  return from + (to - from) * at;',
      '}',
    ),
    'src/extras.ts': unused('extra', 'more'),
    'src/helpers.ts': lines(
      'export function helper(): number {',
      '  return 10;',
      '}',
      'export function notReexported(): number {',
      '  return 20;',
      '}',
    ),
    // Declared before `clamp` (by path): the copy a merge would keep.
    'src/bounds.ts': lines(
      'export function limit(value: number): number {',
      '  return Math.min(Math.max(value, 0), 1);',
      '}',
    ),
  };

  it('a barrel re-export chain: the entry’s own exports and all it re-exports', () => {
    expect(titles(runPass(unusedCodePass, barrel))).toEqual([
      'src/bounds.ts: Remove unused export `limit`',
      'src/helpers.ts: Remove unused export `notReexported`',
    ]);
    // `clamp` leaves the package through two `export *`: no merge may take it away.
    expect(titles(runPass(duplicateFunctionPass, barrel))).toEqual([]);
  });

  it('a public signature keeps the types it names; a public class stays a class', () => {
    const files = {
      'package.json': json({ name: 'store', exports: './dist/api.js' }),
      'tsconfig.json': BUILD_TO_DIST,
      'src/api.ts': lines(
        "import type { Store } from './store.js';",
        '',
        'export function open(store: Store): number {',
        '  return store.get();',
        '}',
        'export class Paths {',
        "  static readonly root = '/';",
        '  static join(a: string, b: string): string {',
        "    return a + '/' + b;",
        '  }',
        '}',
      ),
      'src/store.ts': lines(
        'export interface Store {',
        '  get(): number;',
        '}',
        'export class MemoryStore implements Store {',
        '  get(): number {',
        '    return 1;',
        '  }',
        '}',
      ),
    };
    expect(titles(runPass(singleImplementationPass, files))).toEqual([]);
    expect(titles(runPass(staticOnlyClassPass, files))).toEqual([]);
  });

  it('an entry it cannot trace keeps its whole package public, and says which', () => {
    const files = {
      'package.json': json({ name: 'bundled', exports: { '.': './dist/bundle.js' } }),
      'src/lib.ts': unused('exported', 'alsoExported'),
      'tools/package.json': json({ name: 'tools', private: true }),
      'tools/script.ts': unused('stale', 'older'),
    };
    expect(titles(runPass(unusedCodePass, files))).toEqual([
      'tools/script.ts: Remove 2 unused exports from `tools/script.ts`',
    ]);
    expect(fixtureContext(files).publicApi.untraced).toEqual([
      '`package.json` `exports["."]` (dist/bundle.js) was not traced to a source file (no tsconfig `outDir`/`rootDir` leads there): every export of its package is kept as public API.',
    ]);
  });

  it('index files stay entries where no package.json names them', () => {
    const files = {
      'package.json': json({ name: 'app', exports: './dist/main-entry.js' }),
      'tsconfig.json': BUILD_TO_DIST,
      'src/main-entry.ts': lines('export const ready = true;'),
      'src/widgets/index.ts': unused('widget', 'gadget'),
    };
    expect(titles(runPass(unusedCodePass, files))).toEqual([]);
  });
});
