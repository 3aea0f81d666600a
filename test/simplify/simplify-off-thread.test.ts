import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { simplifyOffThread } from '../../src/simplify/simplify-off-thread.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';

let restoreGit: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
const scope = new Set<string>();

beforeAll(async () => {
  restoreGit = await isolateGit();
  repo = await makeRepo('off-thread');
  // Enough code that reflexion takes a while: 150 files in a chain, every 30th with an import
  // it does not use.
  for (let index = 0; index < 150; index++) {
    const path = `src/module-${index}.ts`;
    const previous =
      index === 0 ? '' : `import { value${index - 1} } from './module-${index - 1}.js';\n`;
    const uses = index === 0 || index % 30 === 0 ? 'value' : `value${index - 1}(value)`;
    const body = Array.from({ length: 40 }, (_, line) => `  const local${line} = ${line} + value;`);
    const sum = Array.from({ length: 40 }, (_, line) => `local${line}`).join(' + ');
    repo.write(
      path,
      `${previous}export function value${index}(value: number): number {\n${body.join('\n')}\n  return ${uses} + ${sum};\n}\n`,
    );
    scope.add(path);
  }
  repo.commit('base');
});

afterAll(async () => {
  await repo.remove();
  await restoreGit();
});

describe('reflexion in a worker thread (the App)', () => {
  it('leaves this thread free while it works, and hands back verified patches', async () => {
    let longestGap = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      const now = Date.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const started = Date.now();
    try {
      const result = await simplifyOffThread(repo.dir, defaultPolicy(), scope, 120_000);
      const took = Date.now() - started;
      expect(result.applied.kept.length).toBeGreaterThan(0);
      expect(result.applied.kept[0]?.proposal.title).toMatch(/^Remove 1 unused import from/);
      // The work took far longer than any pause of this thread: it ran elsewhere.
      expect(took).toBeGreaterThan(1000);
      expect(longestGap).toBeLessThan(took / 4);
    } finally {
      clearInterval(ticker);
    }
  });

  it('stops the worker at the time limit with an error that says what to do', async () => {
    await expect(simplifyOffThread(repo.dir, defaultPolicy(), scope, 300)).rejects.toThrow(
      /^reflexion took longer than 0.3 s and was stopped\.$/,
    );
  });
});
