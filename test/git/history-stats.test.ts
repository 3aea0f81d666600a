import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { historyStats } from '../../src/git/history-stats.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';

/** Commits as `name <email>`, authored and committed at `date` (`--since` reads the latter). */
function commitAs(repo: Repo, author: string, email: string, date: string): void {
  process.env.GIT_COMMITTER_DATE = date;
  repo.write('log.txt', `${author} ${date}\n`);
  repo.git('add', '--all');
  repo.git(
    '-c',
    `user.name=${author}`,
    'commit',
    '--quiet',
    '--no-verify',
    `--author=${author} <${email}>`,
    `--date=${date}`,
    '-m',
    `${author} at ${date}`,
  );
}

describe('historyStats', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('history');
  });
  afterEach(() => repo.remove());

  it('counts commits, dates the first one and counts the recent human authors', async () => {
    commitAs(repo, 'Ada', 'ada@example.test', '2023-02-01T10:00:00Z');
    commitAs(repo, 'Bob', 'bob@example.test', '2024-05-01T10:00:00Z');
    commitAs(repo, 'Bob Again', 'BOB@example.test', '2024-05-02T10:00:00Z');
    commitAs(repo, 'Cy', 'cy@example.test', '2024-05-03T10:00:00Z');
    commitAs(
      repo,
      'dependabot[bot]',
      '1+dependabot[bot]@users.noreply.github.com',
      '2024-05-04T10:00:00Z',
    );
    const stats = await historyStats(repo.dir, new Date('2024-04-01T00:00:00Z'));
    expect(stats).toEqual({
      commits: 5,
      firstCommitAt: '2023-02-01T10:00:00.000Z',
      // Bob twice (e-mails compare without case), Cy; Ada is older, the bot is no one.
      recentAuthors: 2,
      shallow: false,
    });
  });

  it('answers zeros for a repository without commits', async () => {
    expect(await historyStats(repo.dir, new Date())).toEqual({
      commits: 0,
      firstCommitAt: null,
      recentAuthors: 0,
      shallow: false,
    });
  });
});
