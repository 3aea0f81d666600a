// The reference tools' answers on a pinned code base, kept beside it (outside this repository,
// with the fetched code bases) and reused while nothing they depend on has changed.
// dependency-cruiser and madge take about nine tenths of `check-exactness.mjs`'s CPU (on effect
// alone ~50 s of dependency-cruiser against ~14 s of AUREUS) and answer the same every time: the
// code base, the tool and the script that drives it are pinned. AUREUS itself always runs anew;
// only the answers it is compared with are kept. The key holds everything an answer depends on:
// the tool's package.json and AUREUS's lockfile, the driving scripts' bytes, Node's version, the code base's package
// files, its committed tree and any file git does not track in it, and the sources folder. A
// kept answer that does not parse is computed again; AUREUS_REFERENCE_FRESH=1 ignores them all.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codebaseDir } from './codebases.mjs';
import { git } from './reference-git.mjs';

const HERE = new URL('./', import.meta.url);

/** The files each tool's answer is computed by, besides the tool itself. */
const DRIVERS = {
  'dependency-cruiser': [
    'dependency-cruiser-cycles.mjs',
    'scc.mjs',
    'codebases.mjs',
    'run-timed.mjs',
  ],
  madge: ['madge-cycles.mjs', 'scc.mjs', 'codebases.mjs', 'run-timed.mjs'],
};

function bytesOf(path) {
  return existsSync(path) ? readFileSync(path) : Buffer.from('(none)');
}

function answerKey(tool, codebase, repo, variant) {
  const hash = createHash('sha256');
  const part = (label, bytes) => hash.update(`${label}\0${bytes.length}\0`).update(bytes);
  part('tool', Buffer.from(tool));
  // An answer computed with fewer runs (madge without its uncompared second run) is another answer.
  if (variant !== '') part('variant', Buffer.from(variant));
  part('node', Buffer.from(process.version));
  part(
    'package',
    bytesOf(fileURLToPath(new URL(`../../node_modules/${tool}/package.json`, import.meta.url))),
  );
  // The tool's own dependencies (the TypeScript it parses with) are pinned by AUREUS's lockfile.
  part('lockfile', bytesOf(fileURLToPath(new URL('../../package-lock.json', import.meta.url))));
  for (const driver of DRIVERS[tool]) part(driver, bytesOf(fileURLToPath(new URL(driver, HERE))));
  for (const file of ['package.json', 'package-lock.json'])
    part(file, bytesOf(join(codebaseDir(codebase), file)));
  part('tree', Buffer.from(git(repo, ['rev-parse', 'HEAD^{tree}'])));
  // Edited or untracked files change what the tools read from disk: they are part of the key.
  part('status', Buffer.from(git(repo, ['status', '--porcelain', '--untracked-files=all'])));
  part('sources', Buffer.from(codebase.sources));
  return hash.digest('hex').slice(0, 32);
}

/**
 * `compute()`'s answer for `tool` on `codebase`, kept from an earlier run when its key matches;
 * `{ answer, kept }` says which. `variant` names a narrower computation of the same tool.
 */
export async function keptAnswer(tool, codebase, repo, compute, variant = '') {
  const folder = join(codebaseDir(codebase), 'kept-answers');
  const name = variant === '' ? tool : `${tool}-${variant}`;
  const file = join(folder, `${name}-${answerKey(tool, codebase, repo, variant)}.json`);
  if (process.env.AUREUS_REFERENCE_FRESH !== '1' && existsSync(file)) {
    try {
      return { answer: JSON.parse(readFileSync(file, 'utf8')), kept: true };
    } catch {
      // Torn or edited: computed again below, and replaced.
    }
  }
  const answer = await compute();
  mkdirSync(folder, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(answer), { flag: 'wx' });
  renameSync(partial, file);
  return { answer, kept: false };
}
