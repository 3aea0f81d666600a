import { runGit } from '../git/git-runner.js';
import { AureusError } from '../model/errors.js';

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
