import { describe, expect, it } from '@jest/globals';
import type { PublicApi } from '../../src/reflexion/public-api/public-api.js';
import { publicApiChange } from '../../src/simplify/public-api-kept.js';

const lines = (...text: string[]): string => `${text.join('\n')}\n`;

/** `open`, `Store`, `Client`, `limit` and `origin` of src/api.ts are public; nothing else is. */
const API: PublicApi = {
  namesIn: (path) =>
    new Set(path === '/repo/src/api.ts' ? ['open', 'Store', 'Client', 'limit', 'origin'] : []),
  untraced: [],
};

const BEFORE = lines(
  "import { load } from './load.js';",
  'export interface Store {',
  '  get(): number;',
  '}',
  'interface Base {}',
  'export class Client implements Base {',
  '  private cache = 0;',
  '  read(store: Store): number {',
  '    return store.get() + this.cache;',
  '  }',
  '}',
  'function open(path: string): Store {',
  '  return load(path);',
  '}',
  'export { open };',
  "export const limit: number = open('limit').get();",
  "export const origin = open('origin');",
);

const change = (after: string | null, path = 'src/api.ts') =>
  publicApiChange(API, '/repo', { path, before: BEFORE, after });

describe('publicApiChange: the last check before any proposal is shown', () => {
  it('lets bodies, private members, `implements` and other files change', () => {
    const after = BEFORE.replace(
      'return load(path);',
      'const stored = load(path);\n  return stored;',
    )
      .replace('  private cache = 0;\n', '')
      .replace(' + this.cache', '')
      .replace(' implements Base', '')
      .replace('interface Base {}\n', '')
      .replace("open('limit').get()", "load('limit').get()");
    expect(change(after)).toBeUndefined();
    expect(change(null, 'src/other.ts')).toBeUndefined();
  });

  it('refuses a public name removed, renamed or no longer exported', () => {
    expect(change(null)).toBe('it removes `Client`, public API, from `src/api.ts`');
    expect(change(BEFORE.replace('export { open };', 'export { open as openStore };'))).toBe(
      'it removes `open`, public API, from `src/api.ts`',
    );
    expect(change(BEFORE.replace('export interface Store', 'interface Store'))).toBe(
      'it removes `Store`, public API, from `src/api.ts`',
    );
  });

  it('refuses a public signature changed, a type it names included', () => {
    expect(
      change(BEFORE.replace('function open(path: string)', 'function open(path?: string)')),
    ).toBe('it changes the signature of `open`, public API, in `src/api.ts`');
    expect(change(BEFORE.replace('read(store: Store)', 'read(store: { get(): number })'))).toBe(
      'it changes the signature of `Client`, public API, in `src/api.ts`',
    );
    // Without a type written out, the initializer is what gives the constant its type.
    expect(change(BEFORE.replace("open('origin')", "load('origin')"))).toBe(
      'it changes the signature of `origin`, public API, in `src/api.ts`',
    );
  });
});
