// git for the reference code bases: each is a repository of its own, outside this one, that
// AUREUS analyses as tracked files. Nothing of the user's git setup may change what is committed.
import { execFileSync } from 'node:child_process';

/** The environment every git command here runs in: no system config, no prompts. */
export const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
/** Inline settings, so that a user's global config (identity, signing, hooks) does not matter. */
const GIT_SETTINGS = [
  '-c',
  'user.name=aureus',
  '-c',
  'user.email=aureus@localhost',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'init.defaultBranch=main',
  '-c',
  'core.hooksPath=/dev/null',
];

export function git(repo, args) {
  return execFileSync('git', [...GIT_SETTINGS, ...args], {
    cwd: repo,
    env: GIT_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}
