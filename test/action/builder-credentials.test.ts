import { rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { agentEnvironment } from '../../src/action/agent-process.js';
import { refusePersistedCredentials } from '../../src/action/builder-credentials.js';
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

  it('gives the agent an allow-list of variables and the model keys the policy names, nothing else', () => {
    const env: NodeJS.ProcessEnv = {
      PATH: '/usr/bin',
      HOME: '/home/runner',
      LANG: 'C.UTF-8',
      TMPDIR: '/tmp',
      ANTHROPIC_API_KEY: 'sk-ant-kept-for-the-model',
      OTHER_MODEL_KEY: 'named-by-a-fallback',
      GITHUB_TOKEN: TOKEN,
      GITHUB_ENV: '/runner/_temp/_runner_file_commands/set_env_1',
      GITHUB_OUTPUT: '/runner/_temp/_runner_file_commands/set_output_1',
      GITHUB_WORKSPACE: '/work',
      ACTIONS_RUNTIME_TOKEN: 'runtime-token-5a1b',
      NODE_OPTIONS: '--require ./x.js',
      DEPLOY_KEY: 'not-named-anywhere',
    };
    expect(agentEnvironment(env, ['ANTHROPIC_API_KEY', 'OTHER_MODEL_KEY'])).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/runner',
      LANG: 'C.UTF-8',
      TMPDIR: '/tmp',
      ANTHROPIC_API_KEY: 'sk-ant-kept-for-the-model',
      OTHER_MODEL_KEY: 'named-by-a-fallback',
    });
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
