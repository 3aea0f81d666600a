import { runGit } from './git-runner.js';
import { openRepository } from './repository.js';

export interface HistoryStats {
  /** Commits reachable from HEAD; 0 when HEAD has no commit yet. */
  readonly commits: number;
  /** Author date (ISO 8601, UTC) of the oldest root commit reachable from HEAD. */
  readonly firstCommitAt: string | null;
  /** Distinct human authors (by mailmapped e-mail) of the commits since `since`. */
  readonly recentAuthors: number;
  readonly shallow: boolean;
}

/**
 * Bots (dependabot[bot], renovate[bot], github-actions[bot]) commit on every repository; the
 * team size means the people who write and review the code.
 */
const BOT = /\[bot\]/i;

/**
 * How old and how busy the history at HEAD is: what `aureus init` needs to tell a greenfield
 * project from a legacy one and to count the team. Three git calls, argv only; a repository
 * without commits answers zeros rather than failing.
 */
export async function historyStats(repoDir: string, since: Date): Promise<HistoryStats> {
  const repository = await openRepository(repoDir);
  const { cwd, shallow } = repository;
  const head = await runGit(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {
    okExitCodes: [0, 1],
  });
  if (head.exitCode !== 0) return { commits: 0, firstCommitAt: null, recentAuthors: 0, shallow };
  const counted = await runGit(cwd, ['rev-list', '--count', 'HEAD']);
  const roots = await runGit(cwd, ['log', '--max-parents=0', '--format=%aI', 'HEAD']);
  const firstMs = Math.min(
    ...lines(roots.stdout)
      .map(Date.parse)
      .filter((time) => Number.isFinite(time)),
  );
  const recent = await runGit(cwd, [
    'log',
    `--since=${since.toISOString()}`,
    '--format=%aE%x09%aN',
    'HEAD',
  ]);
  const authors = new Set<string>();
  for (const line of lines(recent.stdout)) {
    const [email = '', name = ''] = line.split('\t');
    if (BOT.test(email) || BOT.test(name)) continue;
    authors.add((email || name).toLowerCase());
  }
  return {
    commits: Number.parseInt(counted.stdout.toString('utf8').trim(), 10) || 0,
    firstCommitAt: Number.isFinite(firstMs) ? new Date(firstMs).toISOString() : null,
    recentAuthors: authors.size,
    shallow,
  };
}

function lines(output: Buffer): string[] {
  return output
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
}
