// Usage: node scripts/reference/fetch-codebases.mjs
// Installs the reference code bases (pinned) from the npm registry into $AUREUS_REFERENCE_DIR
// (default: <tmpdir>/aureus-reference-codebases), without running their install scripts, and
// copies each package's sources into `<name>@<version>/repo/`: a repository-like folder outside
// node_modules (tools treat anything under node_modules as third-party), whose own
// dependencies resolve from the node_modules folder beside it. Idempotent: a code base already
// in place is left as it is. Prints one line of JSON per code base: where, files, lines.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { CODEBASES, codebaseDir, repoDir, sourceFiles } from './codebases.mjs';

const MARKER = '.aureus-reference.json';

function install(codebase) {
  const folder = codebaseDir(codebase);
  const repo = repoDir(codebase);
  const marker = join(repo, MARKER);
  const wanted = `${codebase.name}@${codebase.version}`;
  if (existsSync(marker) && JSON.parse(readFileSync(marker, 'utf8')).package === wanted) return;
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ private: true }, null, 2)}\n`);
  const installed = join(folder, 'node_modules', codebase.name);
  if (codebase.dependencies === false) unpack(wanted, folder, installed);
  else
    execFileSync(
      'npm',
      [
        'install',
        '--ignore-scripts',
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        wanted,
      ],
      { cwd: folder, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  mkdirSync(repo, { recursive: true });
  cpSync(join(installed, codebase.sources), join(repo, codebase.sources), { recursive: true });
  for (const name of readdirSync(installed)) {
    if (name === 'package.json' || /^tsconfig.*\.json$/.test(name))
      cpSync(join(installed, name), join(repo, name));
  }
  if (codebase.tsconfig !== undefined && !existsSync(join(repo, 'tsconfig.json'))) {
    const tsconfig = {
      compilerOptions: { ...codebase.tsconfig, strict: true, noEmit: true, skipLibCheck: true },
      include: [codebase.sources],
    };
    writeFileSync(join(repo, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  }
  writeFileSync(marker, `${JSON.stringify({ package: wanted })}\n`);
}

/** The package alone, without its dependencies: `npm pack`, then its tarball unpacked. */
function unpack(wanted, folder, installed) {
  const tarball = execFileSync(
    'npm',
    ['pack', '--silent', '--pack-destination', folder, '--loglevel=error', wanted],
    { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
    .trim()
    .split('\n')
    .at(-1);
  rmSync(installed, { recursive: true, force: true });
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(folder, tarball), '-C', installed, '--strip-components=1'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  rmSync(join(folder, tarball), { force: true });
}

for (const codebase of CODEBASES) {
  install(codebase);
  const repo = repoDir(codebase);
  const files = sourceFiles(repo, codebase.sources);
  const lines = files.reduce(
    (total, file) => total + countLines(readFileSync(join(repo, file), 'utf8')),
    0,
  );
  process.stdout.write(
    `${JSON.stringify({ codebase: `${codebase.name}@${codebase.version}`, repo, files: files.length, lines })}\n`,
  );
}

/** Physical lines; a final newline does not start another. */
function countLines(text) {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
