import { runGit } from '../git/git-runner.js';
import { AureusError } from '../model/errors.js';

/**
 * The runner's GitHub credentials by name: the Action's inputs (read before this, and the token
 * among them), the runtime's own tokens and URLs (artifacts, cache, OIDC id tokens) and the
 * usual token variables. Any other variable is dropped as well when it holds the token's value.
 */
const CREDENTIAL = /^(?:INPUT_.*|ACTIONS_.*|GITHUB_TOKEN|GH_TOKEN|GH_ENTERPRISE_TOKEN)$/i;

/**
 * Takes every GitHub credential out of `env` (the process's own, which the builder and its
 * commands inherit from) before the agent starts, so neither the model's tools nor the
 * project's tests can write to GitHub (the gh-aw "safe outputs" split: THREATS rows 6 and 8).
 * Returns the values taken, for the run's scrubber: a token that turns up anyway is removed
 * from every text the model sees.
 */
export function dropGitHubCredentials(env: NodeJS.ProcessEnv, token: string): string[] {
  const taken = new Set<string>(token === '' ? [] : [token]);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!CREDENTIAL.test(name) && (token === '' || !value.includes(token))) continue;
    delete env[name];
    if (/TOKEN/i.test(name) && value !== '') taken.add(value);
  }
  return [...taken];
}

/**
 * A checkout that kept its token in git's config (actions/checkout's default) hands it to any
 * git command the agent's tests run: the run refuses to start rather than run beside it. Every
 * scope git reads is asked, includes followed: checkout v6 keeps the token in a file under
 * RUNNER_TEMP that `.git/config` only includes, which `--local` alone does not see.
 */
export async function refusePersistedCredentials(root: string): Promise<void> {
  const found = await runGit(
    root,
    [
      'config',
      '--includes',
      '--name-only',
      '--get-regexp',
      '^(http\\..*extraheader|credential\\..*)$',
    ],
    { okExitCodes: [0, 1] },
  );
  if (found.stdout.toString('utf8').trim() === '') return;
  throw new AureusError(
    'the checkout keeps a GitHub credential in .git/config, where the builder and the commands it runs could read it.',
    'set persist-credentials: false on actions/checkout in the builder job.',
  );
}
