import { runGit } from './git-runner.js';

/**
 * Who is running AUREUS, as git would sign a commit (`Name <email>`): the person an override is
 * recorded against. `git var GIT_AUTHOR_IDENT` honours the environment and the configuration
 * the same way `git commit` does; the timestamp it appends is dropped. Null when git has no
 * identity configured.
 */
export async function authorIdentity(repoDir: string): Promise<string | null> {
  const result = await runGit(repoDir, ['var', 'GIT_AUTHOR_IDENT'], { okExitCodes: [0, 128] });
  if (result.exitCode !== 0) return null;
  const ident = result.stdout.toString('utf8').trim();
  return ident.replace(/\s+\d+\s+[+-]\d{4}$/, '') || null;
}
