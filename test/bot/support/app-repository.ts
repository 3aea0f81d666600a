import { codeLines, SMALL_BUDGET_POLICY } from '../../action/support/pull-request-scenario.js';
import { makeRepo, type Repo } from '../../support/git-fixture.js';
import type { GitHubApiDouble } from '../../support/github-api-double/index.js';
import { OWNER, REPO } from './app-payloads.js';

export interface AppRepository {
  /** The real repository the double serves as octo/app. */
  readonly origin: Repo;
  /** main: a small policy (block at 60 points) and a small module. */
  readonly baseSha: string;
  /** A branch off main with `files`, opened as pull request `number`; returns its head. */
  openPullRequest(number: number, files: Record<string, string>): string;
  remove(): Promise<void>;
}

/** The repository the App's end-to-end tests govern, registered with the double. */
export async function makeAppRepository(double: GitHubApiDouble): Promise<AppRepository> {
  const origin = await makeRepo('app-origin');
  origin.write('.aureus/policy.yaml', SMALL_BUDGET_POLICY);
  origin.write('src/core.ts', codeLines('core', 3));
  const baseSha = origin.commit('base');
  double.addRepository({ owner: OWNER, repo: REPO, gitDir: origin.dir, defaultBranch: 'main' });
  return {
    origin,
    baseSha,
    openPullRequest(number, files) {
      origin.git('checkout', '--quiet', '-B', `feature-${number}`, baseSha);
      for (const [path, text] of Object.entries(files)) origin.write(path, text);
      const headSha = origin.commit(`feature ${number}`);
      double.addPullRequest({ owner: OWNER, repo: REPO, number, baseSha, headSha });
      return headSha;
    },
    remove: () => origin.remove(),
  };
}

/** The operations the double received, in order. */
export function operations(double: GitHubApiDouble): string[] {
  return double.requests().map((request) => request.operationId ?? request.path);
}
