import { parseRawDiff, RAW_DIFF_OPTIONS } from './diff-entries.js';
import { runGit } from './git-runner.js';
import { openRepository } from './repository.js';
import { assertSafeRevision, findCommit } from './revisions.js';

/**
 * The files git sees renamed (`-M`, its default 50 % similarity) since `file` was last
 * committed, up to `at` (a commit) or the working tree (`at` undefined, from HEAD's history):
 * old path → new path. This is how a committed baseline follows the files it names: its paths
 * are those of the commit that last wrote it. Empty when no commit wrote the file (a baseline
 * recorded but not yet committed names today's paths) or git cannot tell (a shallow clone
 * missing that commit): a finding then stays at its old path, is no longer recognised, and
 * blocks as new, never passes unseen.
 */
export async function renamesSince(
  repoDir: string,
  file: string,
  at: string | undefined,
): Promise<Map<string, string>> {
  const renames = new Map<string, string>();
  const repository = await openRepository(repoDir);
  if (at !== undefined) assertSafeRevision(at, 'baseline');
  const head = at ?? (await findCommit(repository, 'HEAD'));
  if (head === null) return renames;
  // `:(literal)`: the path is a name, never a pattern.
  const written = await runGit(
    repository.cwd,
    ['log', '-1', '--format=%H', head, '--', `:(literal)${file}`],
    { okExitCodes: [0, 128] },
  );
  const since = written.stdout.toString('utf8').trim();
  if (written.exitCode !== 0 || since === '') return renames;
  const diff = await runGit(
    repository.cwd,
    [
      'diff',
      ...RAW_DIFF_OPTIONS,
      '-M',
      '--diff-filter=R',
      since,
      ...(at === undefined ? [] : [at]),
      '--',
    ],
    { okExitCodes: [0, 128] },
  );
  if (diff.exitCode !== 0) return renames;
  for (const entry of parseRawDiff(diff.stdout))
    renames.set(entry.srcPath.text, entry.dstPath.text);
  return renames;
}
