import { describe, expect, it } from '@jest/globals';
import { prematureAbstraction } from '../../../src/critic/rules/premature-abstraction.js';
import { briefly, contextOf } from '../critic-support.js';

const STORE = 'export interface Store {\n  get(key: string): string;\n}\n';
const memoryStore = (name: string) =>
  `import type { Store } from './store.js';\nexport class ${name} implements Store {\n  get(key: string) { return key; }\n}\n`;

describe('premature_abstraction', () => {
  it('reports an interface with one implementation, with its figures', async () => {
    const context = await contextOf({
      'src/store.ts': STORE,
      'src/memory-store.ts': memoryStore('MemoryStore'),
    });
    expect(prematureAbstraction.check(context)).toEqual([
      expect.objectContaining({
        ruleId: 'premature_abstraction',
        message:
          'interface Store has 1 concrete implementation (MemoryStore); the minimum is 2 (forbidden_patterns.premature_abstraction.min_implementations)',
        location: { path: 'src/store.ts', startLine: 1, endLine: 3 },
        symbol: 'Store',
        measured: 1,
        limit: 2,
      }),
    ]);
  });

  it('passes an interface implemented by two classes in two other files', async () => {
    const context = await contextOf({
      'src/store.ts': STORE,
      'src/memory-store.ts': memoryStore('MemoryStore'),
      'src/disk-store.ts': memoryStore('DiskStore'),
    });
    expect(prematureAbstraction.check(context)).toEqual([]);
  });

  it('leaves out interfaces no class implements: they are data shapes', async () => {
    const context = await contextOf({
      'src/options.ts':
        'export interface Options {\n  depth: number;\n}\nexport const defaults: Options = { depth: 1 };\n',
    });
    expect(prematureAbstraction.check(context)).toEqual([]);
  });

  it('always reports an abstract class, and does not count abstract classes as implementations', async () => {
    const context = await contextOf({
      'src/store.ts': STORE,
      'src/base-store.ts':
        "import type { Store } from './store.js';\nexport abstract class BaseStore implements Store {\n  abstract get(key: string): string;\n}\n",
      'src/memory-store.ts':
        "import { BaseStore } from './base-store.js';\nexport class MemoryStore extends BaseStore {\n  get(key: string) { return key; }\n}\n",
      'src/unused.ts': 'export abstract class Unused {}\n',
    });
    const findings = prematureAbstraction.check(context);
    expect(briefly(findings)).toEqual([
      { ruleId: 'premature_abstraction', symbol: 'BaseStore', at: 'src/base-store.ts:2' },
      { ruleId: 'premature_abstraction', symbol: 'Store', at: 'src/store.ts:1' },
      { ruleId: 'premature_abstraction', symbol: 'Unused', at: 'src/unused.ts:1' },
    ]);
    expect(findings[2]?.message).toBe(
      'abstract class Unused has no concrete implementation; the minimum is 2 (forbidden_patterns.premature_abstraction.min_implementations)',
    );
  });

  it('counts a test double as an implementation, and leaves out abstractions declared in tests', async () => {
    const context = await contextOf({
      'src/store.ts': STORE,
      'src/memory-store.ts': memoryStore('MemoryStore'),
      'test/fake-store.ts': memoryStore('FakeStore').replace("'./store.js'", "'../src/store.js'"),
      'test/fixtures/base.ts': 'export abstract class FixtureBase {}\n',
    });
    expect(prematureAbstraction.check(context)).toEqual([]);
  });

  it('exempts core_interfaces and reads min_implementations from the policy', async () => {
    const sources = { 'src/store.ts': STORE, 'src/memory-store.ts': memoryStore('MemoryStore') };
    const exempt = await contextOf(
      sources,
      'forbidden_patterns:\n  premature_abstraction:\n    core_interfaces: [Store]\n',
    );
    expect(prematureAbstraction.check(exempt)).toEqual([]);
    const lenient = await contextOf(
      sources,
      'forbidden_patterns:\n  premature_abstraction:\n    min_implementations: 1\n',
    );
    expect(prematureAbstraction.check(lenient)).toEqual([]);
  });
});
