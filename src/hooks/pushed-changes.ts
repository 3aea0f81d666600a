import { runGit } from '../git/git-runner.js';
import type { ChangeRequest } from '../git/index.js';
import { AureusError } from '../model/errors.js';

/** One line git writes to a pre-push hook's standard input. */
export interface PushedRef {
  readonly localRef: string;
  readonly localSha: string;
  readonly remoteRef: string;
  readonly remoteSha: string;
}

/** A pushed ref and the change CI will see for it; `basis` says which change that is. */
export interface PushCheck {
  readonly remoteRef: string;
  readonly request: ChangeRequest;
  readonly basis: string;
}

const ZERO = /^0+$/;
const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** `<local ref> SP <local sha> SP <remote ref> SP <remote sha>` per line (githooks(5)). */
export function parsePushLines(text: string): PushedRef[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [localRef = '', localSha = '', remoteRef = '', remoteSha = '', ...rest] = line
        .trim()
        .split(' ');
      if (rest.length > 0 || !SHA.test(localSha) || !SHA.test(remoteSha) || remoteRef === '') {
        throw new AureusError(
          `pre-push got a line it cannot read: "${line.slice(0, 200)}".`,
          'run aureus hook pre-push only from git’s pre-push hook, which writes "<local ref> <local sha> <remote ref> <remote sha>" lines.',
        );
      }
      return { localRef, localSha, remoteRef, remoteSha };
    });
}

/**
 * What to check for each pushed ref, as CI will: the range from its merge base with what the
 * remote has to the pushed commit. A branch the remote already has is compared with the
 * remote's commit; a new branch with the remote's default branch (`<remote>/HEAD`, else
 * `<remote>/main`, else `<remote>/master`); with none of these known locally (a first push),
 * the pushed commit alone is checked. Deletions and tags are skipped: a deletion adds nothing,
 * and a tag points at commits their branches brought.
 */
export async function pushedChanges(
  root: string,
  remote: string,
  refs: readonly PushedRef[],
): Promise<PushCheck[]> {
  const checks: PushCheck[] = [];
  for (const ref of refs) {
    if (ZERO.test(ref.localSha) || ref.remoteRef.startsWith('refs/tags/')) continue;
    if (!ZERO.test(ref.remoteSha) && (await isCommit(root, ref.remoteSha))) {
      checks.push({
        remoteRef: ref.remoteRef,
        request: { kind: 'range', base: ref.remoteSha, head: ref.localSha, threeDot: true },
        basis: `from its merge base with ${remote}'s ${shortRef(ref.remoteRef)} (${ref.remoteSha.slice(0, 12)})`,
      });
      continue;
    }
    const base = await defaultBranch(root, remote);
    checks.push(
      base === null
        ? {
            remoteRef: ref.remoteRef,
            request: { kind: 'commit', ref: ref.localSha },
            basis: `the pushed commit alone (no default branch of ${remote} is known here)`,
          }
        : {
            remoteRef: ref.remoteRef,
            request: { kind: 'range', base, head: ref.localSha, threeDot: true },
            basis: `from its merge base with ${shortRef(base)}`,
          },
    );
  }
  return checks;
}

/** `refs/remotes/<remote>/HEAD`, `…/main` or `…/master`: the first that names a commit. */
async function defaultBranch(root: string, remote: string): Promise<string | null> {
  // A push to a URL has no remote-tracking refs; a name that is not one has none either.
  if (!/^[\w][\w.-]*$/.test(remote)) return null;
  for (const name of ['HEAD', 'main', 'master']) {
    const ref = `refs/remotes/${remote}/${name}`;
    if (await isCommit(root, ref)) return ref;
  }
  return null;
}

async function isCommit(root: string, revision: string): Promise<boolean> {
  const answer = await runGit(root, ['rev-parse', '-q', '--verify', `${revision}^{commit}`], {
    okExitCodes: [0, 1, 128],
  });
  return answer.exitCode === 0;
}

function shortRef(ref: string): string {
  return ref.replace(/^refs\/(heads|remotes)\//, '');
}
