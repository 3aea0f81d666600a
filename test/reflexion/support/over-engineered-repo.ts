import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeRepo, type Repo } from '../../support/git-fixture.js';

/** A project of single-implementation interfaces, static-only classes and wrappers. */
export const OVER_ENGINEERED = fileURLToPath(
  new URL('../../fixtures/reflexion/over-engineered', import.meta.url),
);

/** Its test command: transpiles src/ and checks what report() says (run in the repository). */
export const RUN_OVER_ENGINEERED_TESTS = fileURLToPath(
  new URL('../../fixtures/reflexion/run-over-engineered-tests.mjs', import.meta.url),
);

/**
 * The fixture committed in a fresh repository (isolateGit first); `remove` goes in `removeAll`.
 * `extra` files are written before the commit, then `prepare` runs (links, say).
 */
export function overEngineeredRepos(prefix: string) {
  const repos: (Repo & { remove(): Promise<void> })[] = [];
  return {
    async make(
      extra: Readonly<Record<string, string>> = {},
      prepare?: (repo: Repo) => void,
    ): Promise<Repo> {
      const repo = await makeRepo(prefix);
      repos.push(repo);
      cpSync(OVER_ENGINEERED, repo.dir, { recursive: true });
      for (const [path, text] of Object.entries(extra)) repo.write(path, text);
      prepare?.(repo);
      repo.commit('over-engineered');
      return repo;
    },
    async removeAll(): Promise<void> {
      for (const repo of repos.splice(0)) await repo.remove();
    },
  };
}
