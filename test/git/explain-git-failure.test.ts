import { describe, expect, it } from '@jest/globals';
import { explainGitFailure, summarizeStderr } from '../../src/git/explain-git-failure.js';
import { hasStagedChanges } from '../../src/hooks/commit-in-progress.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('explainGitFailure', () => {
  it('quotes the fatal line, leaves out git hints, and gives exit 2', () => {
    const error = explainGitFailure(
      '/repo',
      ['diff', '--raw'],
      128,
      "hint: try this\nfatal: ambiguous argument 'nope': unknown revision or path not in the working tree.\n",
    );
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(
      "git diff failed (exit 128): fatal: ambiguous argument 'nope': unknown revision or path not in the working tree.",
    );
    expect(error.hint).toMatch(/check the ref/);
  });

  it('recommends safe.directory for a repository owned by someone else', () => {
    const error = explainGitFailure(
      '/srv/repo',
      ['rev-parse'],
      128,
      "fatal: detected dubious ownership in repository at '/srv/repo'\n",
    );
    expect(error.hint).toBe(
      'mark the folder as safe for git: git config --global --add safe.directory /srv/repo',
    );
  });

  it('says how to see the whole message when it does not recognise the failure', () => {
    const error = explainGitFailure('/repo', ['cat-file', '--batch'], 1, '');
    expect(error.message).toBe('git cat-file failed (exit 1).');
    expect(error.hint).toBe('run "git cat-file --batch" in /repo to see git\'s full message.');
  });

  it('says a folder is not in a repository when git diff answers with its --no-index usage', async () => {
    // Real git, run by hand outside any repository (as `aureus hook pre-commit` may be).
    const folder = await makeTempDir('no-repository');
    try {
      const failure = hasStagedChanges(folder.path);
      await expect(failure).rejects.toMatchObject({
        message: `git diff failed (exit 129): ${folder.path} is not in a git repository.`,
        hint: 'run AUREUS inside a git repository, or pass the folder of one.',
      });
    } finally {
      await folder.remove();
    }
  });

  it('keeps summaries to one short sentence', () => {
    expect(summarizeStderr(`fatal: ${'x'.repeat(1000)}`)).toHaveLength(300);
    expect(summarizeStderr('warning: one\nsomething else\n')).toBe('warning: one something else');
  });
});
