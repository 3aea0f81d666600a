// The ~50,000-line repository the hook and builder benchmarks run on: rxjs@7.8.2's `src/` and
// zod@4.6.7's `src/v4/{core,classic,mini,locales}` (their own tests left out), from the reference
// code bases of scripts/reference/ (fetched from the npm registry when missing; offline once
// fetched), committed into one fresh git repository with a policy.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CODEBASES, DECLARATION, repoDir, SOURCE } from '../scripts/reference/codebases.mjs';

/** Where each code base's sources come from, and the folder they get in the benchmark repository. */
const PARTS = [
  { codebase: 'rxjs', from: 'src', to: 'rxjs' },
  ...['core', 'classic', 'mini', 'locales'].map((dir) => ({
    codebase: 'zod',
    from: `src/v4/${dir}`,
    to: `zod/${dir}`,
  })),
];

export const REFERENCE_REPOSITORY =
  'rxjs@7.8.2 src/ + zod@4.6.7 src/v4/{core,classic,mini,locales} (tests left out)';

/** The sources of every part, tests left out, copied into `repo` and committed; returns `repo`. */
export function buildReferenceRepository(repo, git) {
  for (const part of PARTS) {
    const codebase = CODEBASES.find((candidate) => candidate.name === part.codebase);
    cpSync(join(repoDir(codebase), part.from), join(repo, part.to), {
      recursive: true,
      filter: (source) => !/[\\/](tests?|__tests__)$/.test(source),
    });
  }
  mkdirSync(join(repo, '.aureus'));
  writeFileSync(
    join(repo, '.aureus', 'policy.yaml'),
    'version: 1\nbudgets:\n  change: { warn: 400, block: 500 }\npaths:\n  ignore: ["**/*.d.ts", "**/*.js"]\n',
  );
  // The local store is excluded the way a user's .gitignore would (the folder ignores itself).
  git(repo, ['init', '-q', '--initial-branch=main']);
  git(repo, ['add', '-A']);
  git(repo, ['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', 'base']);
  return repo;
}

/** The repository's TypeScript sources, declaration files left out, sorted. */
export function sources(repo) {
  return readdirSync(repo, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !DECLARATION.test(entry.name))
    .map((entry) => relative(repo, join(entry.parentPath, entry.name)).replaceAll('\\', '/'))
    .filter((path) => !path.startsWith('.git/'))
    .sort();
}

export function countLines(repo, files) {
  return files.reduce((total, file) => {
    const text = readFileSync(join(repo, file), 'utf8');
    return total + text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  }, 0);
}
