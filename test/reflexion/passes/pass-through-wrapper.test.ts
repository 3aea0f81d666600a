import { describe, expect, it } from '@jest/globals';
import { passThroughWrapperPass } from '../../../src/reflexion/passes/pass-through-wrapper.js';
import { applyEdits, runPass } from '../support/fixture-project.js';

const USERS = [
  'export interface User {',
  '  id: string;',
  '}',
  '',
  'export function loadUser(id: string): User {',
  '  return { id };',
  '}',
  '',
].join('\n');

const API = [
  "import { loadUser, type User } from './users.js';",
  '',
  '/** Fetches a user. */',
  'export function fetchUser(id: string): User {',
  '  return loadUser(id);',
  '}',
  '',
  "export const version = '1';",
  '',
].join('\n');

const PAGE = [
  "import { fetchUser } from './api.js';",
  '',
  "export const user = fetchUser('1');",
  "export const users = ['a', 'b'].map((id) => fetchUser(id));",
  '',
].join('\n');

const FILES: Record<string, string> = {
  'src/users.ts': USERS,
  'src/api.ts': API,
  'src/page.ts': PAGE,
};

/** The files the only proposal changes, after it. */
function changed(files: Record<string, string>): Record<string, string | null> {
  const proposals = runPass(passThroughWrapperPass, files);
  expect(proposals).toHaveLength(1);
  const [proposal] = proposals;
  if (proposal === undefined) throw new Error('no proposal');
  const after = applyEdits(files, proposal.edits);
  return Object.fromEntries(proposal.edits.map((edit) => [edit.path, after[edit.path] ?? null]));
}

describe('pass-through-wrapper', () => {
  it('calls the forwarded-to function directly, importing it where the wrapper was', () => {
    const proposals = runPass(passThroughWrapperPass, FILES);
    expect(proposals.map(({ title, path, line }) => ({ title, path, line }))).toEqual([
      { title: 'Replace pass-through `fetchUser` with `loadUser`', path: 'src/api.ts', line: 4 },
    ]);
    expect(changed(FILES)).toEqual({
      'src/api.ts': "export const version = '1';\n",
      'src/page.ts': [
        "import { loadUser } from './users.js';",
        '',
        "export const user = loadUser('1');",
        "export const users = ['a', 'b'].map((id) => loadUser(id));",
        '',
      ].join('\n'),
    });
  });

  it('replaces a wrapper arrow next to its callee, also where it is handed over as a value', () => {
    const files = {
      'src/math.ts': [
        'export function twice(n: number): number {',
        '  return n * 2;',
        '}',
        'export const double = (n: number) => twice(n);',
        'export const four = double(2);',
        '',
      ].join('\n'),
      'src/list.ts': [
        "import { double } from './math.js';",
        "import { four } from './math.js';",
        'export const list = [1, four].map(double);',
        '',
      ].join('\n'),
    };
    expect(changed(files)).toEqual({
      'src/math.ts': [
        'export function twice(n: number): number {',
        '  return n * 2;',
        '}',
        'export const four = twice(2);',
        '',
      ].join('\n'),
      'src/list.ts': [
        "import { twice } from './math.js';",
        "import { four } from './math.js';",
        'export const list = [1, four].map(twice);',
        '',
      ].join('\n'),
    });
  });

  it('imports a package function by the specifier the wrapper used', () => {
    const files = {
      'node_modules/slugs/index.d.ts': 'export declare function slugify(text: string): string;\n',
      'src/text.ts': [
        "import { slugify } from 'slugs';",
        '',
        'export function toSlug(text: string): string {',
        '  return slugify(text);',
        '}',
        '',
      ].join('\n'),
      'src/post.ts': [
        "import { toSlug } from './text.js';",
        '',
        "export const slug = toSlug('Hello world');",
        '',
      ].join('\n'),
    };
    expect(changed(files)).toEqual({
      'src/text.ts': null,
      'src/post.ts': [
        "import { slugify } from 'slugs';",
        '',
        "export const slug = slugify('Hello world');",
        '',
      ].join('\n'),
    });
  });

  it('only looks in scope', () => {
    expect(runPass(passThroughWrapperPass, FILES, ['src/page.ts', 'src/users.ts'])).toEqual([]);
  });

  describe('refuses', () => {
    const withApi = (api: string, page = PAGE): Record<string, string> => ({
      ...FILES,
      'src/api.ts': api,
      'src/page.ts': page,
    });
    const refused: Record<string, Record<string, string>> = {
      'a wrapper that changes the argument order': {
        'src/pair.ts': [
          'export function pair(a: string, b: string): string {',
          '  return a + b;',
          '}',
          'export function swapped(a: string, b: string): string {',
          '  return pair(b, a);',
          '}',
          "export const text = swapped('x', 'y');",
          '',
        ].join('\n'),
      },
      'a wrapper that adds a default value': withApi(
        API.replace('fetchUser(id: string)', "fetchUser(id: string = 'me')"),
      ),
      'a wrapper that calls a method': {
        'src/client.ts': [
          'class Client {',
          '  get(id: string): string {',
          '    return id;',
          '  }',
          '}',
          'const client = new Client();',
          'export function fetchUser(id: string): string {',
          '  return client.get(id);',
          '}',
          'export class Service {',
          '  constructor(private readonly client: Client) {}',
          '  fetch(id: string): string {',
          '    return this.client.get(id);',
          '  }',
          '}',
          "export const user = fetchUser('1');",
          '',
        ].join('\n'),
      },
      'a wrapper exported from src/index.ts': {
        'src/users.ts': USERS,
        'src/index.ts': API,
        'src/page.ts': PAGE.replace('./api.js', './index.js'),
      },
      'a wrapper re-exported by name': {
        ...FILES,
        'src/public.ts': "export { fetchUser } from './api.js';\n",
      },
      'a wrapper that logs before the call': withApi(
        API.replace(
          '  return loadUser(id);',
          "  console.log('fetching', id);\n  return loadUser(id);",
        ),
      ),
      'a recursive wrapper': {
        'src/loop.ts': [
          'export function loop(n: number): number {',
          '  return loop(n);',
          '}',
          '',
        ].join('\n'),
      },
      'a wrapper called with fewer arguments than it has parameters': {
        'src/sum.ts': [
          'export function add(a?: number, b?: number): number {',
          '  return (a ?? 0) + (b ?? 0);',
          '}',
          'export function plus(a?: number, b?: number): number {',
          '  return add(a, b);',
          '}',
          'export const one = plus(1);',
          '',
        ].join('\n'),
      },
      'a wrapper declaring another parameter type than its callee': withApi(
        API.replace('fetchUser(id: string)', "fetchUser(id: 'me' | 'you')"),
        PAGE.replace("fetchUser('1')", "fetchUser('me')").replace(
          "['a', 'b'].map((id) => fetchUser(id))",
          "(['me'] as const).map((id) => fetchUser(id))",
        ),
      ),
      'a wrapper handed over where the callee would take more arguments': {
        'src/parse.ts': [
          'export function toNumber(text: string, radix?: number): number {',
          '  return Number.parseInt(text, radix);',
          '}',
          'export function parse(text: string): number {',
          '  return toNumber(text);',
          '}',
          "export const numbers = ['1', '2'].map(parse);",
          '',
        ].join('\n'),
      },
      'a wrapper whose name is read': withApi(`${API}export const label = fetchUser.name;\n`),
      'an async wrapper': withApi(
        API.replace(
          'export function fetchUser(id: string): User',
          // No declared return type: the types would allow it, the promise is the difference.
          'export async function fetchUser(id: string)',
        ),
        "import { fetchUser } from './api.js';\n\nexport const user = fetchUser('1');\n",
      ),
      'a file where the callee name means something else': withApi(
        API,
        `${PAGE}const loadUser = (): void => undefined;\nloadUser();\n`,
      ),
      'a callee its users could not import': {
        'src/api.ts': [
          'function loadUser(id: string): string {',
          '  return id;',
          '}',
          'export function fetchUser(id: string): string {',
          '  return loadUser(id);',
          '}',
          '',
        ].join('\n'),
        'src/page.ts': PAGE,
      },
    };
    it.each(Object.keys(refused))('%s', (name) => {
      const files = refused[name];
      if (files === undefined) throw new Error(name);
      expect(runPass(passThroughWrapperPass, files)).toEqual([]);
    });
  });
});
