import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { makeTempDir } from './temp-dir.js';

/**
 * Variables that would point git at another repository (a test run from a git hook gets
 * GIT_DIR and GIT_INDEX_FILE of the outer repository) or bring in someone's configuration.
 */
const LEAKY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_CONFIG',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_PREFIX',
];

/**
 * Makes every git started from this test file (the fixtures' and the adapter's own) see only
 * the repositories the tests build: HOME in a fresh folder so no ~/.gitconfig applies, no
 * system config, a fixed identity and dates, and discovery that stops at the temp folder.
 * Jest gives each test file its own copy of process.env, so this stays in the file.
 */
export async function isolateGit(): Promise<() => Promise<void>> {
  const home = await makeTempDir('git-home');
  for (const name of LEAKY_VARIABLES) delete process.env[name];
  Object.assign(process.env, {
    HOME: home.path,
    XDG_CONFIG_HOME: home.path,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test Author',
    GIT_AUTHOR_EMAIL: 'author@example.test',
    GIT_COMMITTER_NAME: 'Test Committer',
    GIT_COMMITTER_EMAIL: 'committer@example.test',
    GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
    GIT_CEILING_DIRECTORIES: realpathSync(tmpdir()),
  });
  return home.remove;
}

/** A real repository in a temp folder, with the few verbs tests need. */
export interface Repo {
  readonly dir: string;
  /** Runs git in the repository; returns stdout without its final newline; throws on failure. */
  git(...args: string[]): string;
  write(path: string, content: string | Buffer): void;
  symlink(target: string, path: string): void;
  /** The blob id git gives these bytes (`git hash-object --stdin`). */
  hashText(text: string): string;
  /** Stages everything and commits; returns the new commit id. */
  commit(message: string): string;
  /**
   * Leaves `path` unmerged: a merge of branch `other`, which changed it one way while the
   * current branch changed it another. The merge stops with the conflict in the index.
   */
  conflict(path: string): void;
}

export async function makeRepo(
  prefix: string,
  options: { init?: boolean } = {},
): Promise<Repo & { remove(): Promise<void> }> {
  const temp = await makeTempDir(`git-${prefix}`);
  const repo = repoAt(temp.path);
  if (options.init ?? true) repo.git('init', '--quiet', '--initial-branch=main');
  return { ...repo, remove: temp.remove };
}

export function repoAt(dir: string): Repo {
  const git = (...args: string[]): string => runGit(dir, args);
  const commit = (message: string): string => {
    git('add', '--all');
    git('commit', '--quiet', '--allow-empty', '--no-verify', '-m', message);
    return git('rev-parse', 'HEAD');
  };
  return {
    dir,
    git,
    write(path, content) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    },
    symlink(target, path) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      symlinkSync(target, join(dir, path));
    },
    hashText(text) {
      return runGit(dir, ['hash-object', '--stdin'], text);
    },
    commit,
    conflict(path) {
      const commitText = (text: string, message: string) => {
        writeFileSync(join(dir, path), text);
        commit(message);
      };
      git('checkout', '--quiet', '-b', 'other');
      commitText('other\n', 'other');
      git('checkout', '--quiet', '-');
      commitText('main\n', 'main');
      const merge = spawnSync('git', ['merge', '--quiet', 'other'], { cwd: dir, env: process.env });
      if (merge.status === 0) throw new Error(`merging into ${dir} did not conflict on ${path}`);
    },
  };
}

export function runGit(cwd: string, args: string[], input?: string): string {
  const result = spawnSync('git', args, { cwd, env: process.env, encoding: 'utf8', input });
  if (result.status !== 0) {
    throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${result.stderr}`);
  }
  return result.stdout.replace(/\n$/, '');
}

/** `count` lines of equal length, so similarity percentages come out exact. */
export function numberedLines(count: number, label: string): string {
  return Array.from({ length: count }, (_, i) => `${label} ${String(i).padStart(4, '0')}\n`).join(
    '',
  );
}
