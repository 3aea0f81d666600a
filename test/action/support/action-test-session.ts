import { afterAll, afterEach, beforeAll, expect } from '@jest/globals';
import { isolateGit } from '../../support/git-fixture.js';
import {
  type GitHubApiDouble,
  type Permissions,
  startGitHubApiDouble,
} from '../../support/github-api-double/index.js';
import { makeScenario, type Scenario } from './pull-request-scenario.js';

export interface ActionTestSession {
  /** The GitHub API double of this test file (started in beforeAll). */
  readonly double: GitHubApiDouble;
  /** A scenario removed when the file's tests are done. */
  scenario(
    ...args: Parameters<typeof makeScenario> extends [unknown, ...infer R] ? R : never
  ): Promise<Scenario>;
}

/**
 * The setup every Action test file shares: git isolated, one API double with the given tokens,
 * and after each test the check that every request the Action made was valid, allowed by its
 * token and known to GitHub's description.
 */
export function useActionTestSession(
  tokens: Readonly<Record<string, Permissions>>,
): ActionTestSession {
  let restore: (() => Promise<void>) | undefined;
  let current: GitHubApiDouble | undefined;
  const scenarios: Scenario[] = [];
  const double = (): GitHubApiDouble => {
    if (current === undefined) throw new Error('the API double starts in beforeAll');
    return current;
  };

  beforeAll(async () => {
    restore = await isolateGit();
    current = await startGitHubApiDouble();
    for (const [token, permissions] of Object.entries(tokens)) current.addToken(token, permissions);
  });
  afterEach(() => {
    expect(double().invalidRequests()).toEqual([]);
    expect(double().forbiddenRequests()).toEqual([]);
    expect(double().unexpectedRequests()).toEqual([]);
    double().reset();
  });
  afterAll(async () => {
    await current?.close();
    for (const scenario of scenarios) await scenario.remove();
    await restore?.();
  });

  return {
    get double() {
      return double();
    },
    async scenario(...args) {
      const made = await makeScenario(double(), ...args);
      scenarios.push(made);
      return made;
    },
  };
}
