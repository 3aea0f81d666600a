import { describe, expect, it } from '@jest/globals';
import { effectPricer } from '../../src/agent/effect-price.js';
import type { FileEffect } from '../../src/agent/tool-contract.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';

const policy = defaultPolicy();
const created = (path: string): FileEffect => ({ path, before: null, after: 'export {};\n' });

describe("an action's price", () => {
  it('counts a module the action opens in the core, once: the action after it pays none', async () => {
    let tree = ['src/a/one.ts', 'README.md', 'src/b/README.md'];
    const listings: number[] = [];
    const price = effectPricer(policy, async () => {
      listings.push(tree.length);
      return tree;
    });
    const opening = await price([created('src/b/two.ts')]);
    tree = [...tree, 'src/b/two.ts'];
    const inside = await price([created('src/b/three.ts')]);
    expect(opening - inside).toBe(policy.pricing.module);
    // A file beside an existing module's files opens none, whatever the listing says of it.
    expect(await price([created('src/a/four.ts')])).toBe(inside);
    expect(listings).toHaveLength(3);
  });

  it('lists the tree only when the action creates a core file', async () => {
    let listed = 0;
    const price = effectPricer(policy, async () => {
      listed += 1;
      return [];
    });
    await price([{ path: 'src/a/one.ts', before: 'export {};\n', after: 'export const a = 1;\n' }]);
    await price([created('docs/guide.md')]);
    // Modules are made of source files, as the check's analysis reads them.
    await price([created('src/notes/todo.md')]);
    expect(listed).toBe(0);
  });
});
