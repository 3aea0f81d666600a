import { rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  dropGitHubCredentials,
  refusePersistedCredentials,
} from '../../src/action/builder-credentials.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';

const TOKEN = 'runner-token-0dd5e7a1c9';

describe('the builder job’s credentials', () => {
  let restore: () => Promise<void>;
  let repo: Repo & { remove(): Promise<void> };
  beforeAll(async () => {
    restore = await isolateGit();
    repo = await makeRepo('persisted-credentials');
    repo.write('a.txt', 'a\n');
    repo.commit('base');
  });
  afterAll(async () => {
    await repo.remove();
    await restore();
  });

  it('takes every GitHub credential out of the environment and hands their values to the scrubber', () => {
    const env: NodeJS.ProcessEnv = {
      PATH: '/usr/bin',
      ANTHROPIC_API_KEY: 'sk-ant-kept-for-the-model',
      'INPUT_GITHUB-TOKEN': TOKEN,
      INPUT_MODE: 'implement',
      GITHUB_TOKEN: TOKEN,
      GITHUB_WORKSPACE: '/work',
      ACTIONS_RUNTIME_TOKEN: 'runtime-token-5a1b',
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-request-token-77',
      ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions.example/',
      DEPLOY_HEADER: `Bearer ${TOKEN}`,
    };
    const taken = dropGitHubCredentials(env, TOKEN);
    expect(env).toEqual({
      PATH: '/usr/bin',
      ANTHROPIC_API_KEY: 'sk-ant-kept-for-the-model',
      GITHUB_WORKSPACE: '/work',
    });
    expect(taken).toEqual(
      expect.arrayContaining([TOKEN, 'runtime-token-5a1b', 'oidc-request-token-77']),
    );
  });

  it('refuses a token that .git/config only includes, as actions/checkout v6 keeps it', async () => {
    const other = await makeRepo('included-credentials');
    try {
      const kept = join(other.dir, '..', `${basename(other.dir)}-credentials.config`);
      writeFileSync(
        kept,
        `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${TOKEN}\n`,
      );
      other.git('config', '--local', `includeIf.gitdir:${other.dir}/.git.path`, kept);
      await expect(refusePersistedCredentials(other.dir)).rejects.toThrow(
        'the checkout keeps a GitHub credential',
      );
      rmSync(kept);
    } finally {
      await other.remove();
    }
  });

  it('refuses a checkout that kept its token in .git/config', async () => {
    await expect(refusePersistedCredentials(repo.dir)).resolves.toBeUndefined();
    repo.git(
      'config',
      '--local',
      'http.https://github.com/.extraheader',
      `AUTHORIZATION: basic ${TOKEN}`,
    );
    await expect(refusePersistedCredentials(repo.dir)).rejects.toThrow(
      'the checkout keeps a GitHub credential in .git/config',
    );
  });
});
