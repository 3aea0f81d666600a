// The reference tools' answers on the pinned code bases, committed in this repository
// (`answers/<tool>[-<variant>]-<code base>@<version>.json`) and reused while nothing that decides
// them has changed. dependency-cruiser and madge take about nine tenths of `check-exactness.mjs`'s
// CPU (on effect alone ~50 s of dependency-cruiser against ~14 s of AUREUS) and answer the same
// every time on pinned inputs; kept only in a temporary folder, they were computed again on every
// clean machine (CI) and after every lockfile change. AUREUS itself always runs anew; only the
// answers it is compared with are kept. They are the tools' own output, less the run times.
//
// Each file stores the key it was computed under, narrowed to what decides the answer: the tool's
// name and variant, the versions of every package it loads (its installed package.json files,
// dependencies followed transitively, TypeScript included: both parse with it), the driving
// scripts' bytes (sha256), the code base's name, version and committed tree id (which holds its
// tsconfig), the sources folder and the tsconfig options the fetch writes. Not Node's version nor
// AUREUS's whole lockfile: the tools' packages are named one by one. The file also stores the
// sha256 of the answer's bytes: an answer edited by hand under a matching key would compare AUREUS
// with a lie, so a mismatch is reported and the answer computed. A committed answer whose key does
// not match is stale: the check computes the answer, prints one line naming the file and how to
// refresh it (`npm run exactness:refresh`), and never writes into the repository; computed answers
// are kept under the same key beside the fetched code base, so a second run does not pay again.
// `--refresh` (exactness:refresh) computes every answer and rewrites the committed files;
// AUREUS_REFERENCE_FRESH=1 computes them without reading or writing any kept or committed answer.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codebaseDir } from './codebases.mjs';
import { git } from './reference-git.mjs';

const HERE = new URL('./', import.meta.url);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the committed answers are. */
export const ANSWERS_DIR = fileURLToPath(new URL('./answers/', import.meta.url));

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

/**
 * Packages a tool loads without naming them as dependencies: dependency-cruiser parses TypeScript
 * with the `typescript` it finds installed (an optional require, not a dependency).
 */
const LOADED = { 'dependency-cruiser': ['typescript'], madge: ['typescript'] };

/** Run times change every run and are not the answer: left out of what is committed. */
const TIMINGS = new Set(['seconds', 'secondsAsEmitted', 'secondsWithoutTypeImports']);

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The installed package `name` as Node resolves it from `fromDir`, or null when not installed. */
function installedPackage(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file))
      return { dir: dirname(file), json: JSON.parse(readFileSync(file, 'utf8')) };
    if (dirname(dir) === dir) return null;
  }
}

/**
 * `{ name: [versions] }` of the tool and every package it can load: its dependencies, optional and
 * peer dependencies that are installed, transitively, as resolved from each package's folder.
 */
export function loadedPackages(tool) {
  const versions = new Map();
  const seen = new Set();
  const queue = [[tool, ROOT], ...(LOADED[tool] ?? []).map((name) => [name, ROOT])];
  while (queue.length > 0) {
    const [name, fromDir] = queue.pop();
    const found = installedPackage(name, fromDir);
    if (found === null) continue;
    if (seen.has(found.dir)) continue;
    seen.add(found.dir);
    if (!versions.has(name)) versions.set(name, new Set());
    versions.get(name).add(found.json.version);
    const { dependencies = {}, optionalDependencies = {}, peerDependencies = {} } = found.json;
    for (const next of new Set([
      ...Object.keys(dependencies),
      ...Object.keys(optionalDependencies),
      ...Object.keys(peerDependencies),
    ]))
      queue.push([next, found.dir]);
  }
  return Object.fromEntries(
    [...versions.keys()].sort().map((name) => [name, [...versions.get(name)].sort()]),
  );
}

/** What decides `tool`'s answer on `codebase`, as plain data (stored in the committed file). */
export function answerKey(tool, codebase, repo, variant) {
  const drivers = {};
  for (const driver of DRIVERS[tool])
    drivers[driver] = sha256(readFileSync(fileURLToPath(new URL(driver, HERE))));
  // Edited or untracked files change what the tools read from disk: a key with them matches no
  // committed answer (committed answers are computed on the clean tree).
  const status = git(repo, ['status', '--porcelain', '--untracked-files=all']);
  return {
    tool,
    variant,
    packages: loadedPackages(tool),
    drivers,
    codebase: `${codebase.name}@${codebase.version}`,
    tree: git(repo, ['rev-parse', 'HEAD^{tree}']).trim(),
    ...(status === '' ? {} : { uncommitted: sha256(status) }),
    sources: codebase.sources,
    tsconfig: codebase.tsconfig ?? null,
  };
}

/** The answer without its run times: deterministic bytes to commit and hash. */
function withoutTimings(answer) {
  return Object.fromEntries(Object.entries(answer).filter(([name]) => !TIMINGS.has(name)));
}

function answerBytes(answer) {
  return JSON.stringify(answer);
}

/** `answers/<tool>[-<variant>]-<name>@<version>.json`; a scope's slash becomes `+`. */
export function committedFile(tool, codebase, variant) {
  const name = variant === '' ? tool : `${tool}-${variant}`;
  return join(ANSWERS_DIR, `${name}-${codebase.name.replace('/', '+')}@${codebase.version}.json`);
}

function fileText(key, answer) {
  return `${JSON.stringify({ key, answerSha256: sha256(answerBytes(answer)), answer }, null, 2)}\n`;
}

/** The differing top-level parts of two keys, by name: what made a committed answer stale. */
function changedParts(stored, key) {
  const names = new Set([...Object.keys(stored ?? {}), ...Object.keys(key)]);
  return [...names].filter((name) => JSON.stringify(stored?.[name]) !== JSON.stringify(key[name]));
}

/** The committed answer when its key matches and its bytes are the ones hashed; else why not. */
function readCommitted(file, key) {
  if (!existsSync(file)) return { reason: 'is missing' };
  let stored;
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { reason: `does not parse (${error.message})` };
  }
  const changed = changedParts(stored.key, key);
  if (changed.length > 0) return { reason: `is stale (${changed.join(', ')} changed)` };
  if (stored.answer === undefined || sha256(answerBytes(stored.answer)) !== stored.answerSha256)
    return { reason: 'was edited: its answer is not the one its answerSha256 was computed from' };
  return { answer: stored.answer };
}

/**
 * `compute()`'s answer for `tool` on `codebase`: the committed one when its key matches, else one
 * kept beside the code base under the same key, else computed. `{ answer, source }`, source one of
 * 'committed', 'kept', 'computed'. `variant` names a narrower computation of the same tool.
 * `refresh`: computes and rewrites the committed file.
 */
export async function keptAnswer(tool, codebase, repo, compute, variant = '', refresh = false) {
  const fresh = process.env.AUREUS_REFERENCE_FRESH === '1';
  const key = answerKey(tool, codebase, repo, variant);
  const file = committedFile(tool, codebase, variant);
  const keyHash = sha256(JSON.stringify(key)).slice(0, 32);
  const name = variant === '' ? tool : `${tool}-${variant}`;
  const keptFile = join(codebaseDir(codebase), 'kept-answers', `${name}-${keyHash}.json`);
  if (!fresh && !refresh) {
    const committed = readCommitted(file, key);
    if (committed.answer !== undefined) return { answer: committed.answer, source: 'committed' };
    process.stderr.write(
      `${relative(ROOT, file)} ${committed.reason}: computing ${name}'s answer on ${key.codebase}; \`npm run exactness:refresh\` recomputes and rewrites the committed answers\n`,
    );
    if (existsSync(keptFile)) {
      try {
        return { answer: JSON.parse(readFileSync(keptFile, 'utf8')), source: 'kept' };
      } catch {
        // Torn or edited: computed again below, and replaced.
      }
    }
  }
  const answer = withoutTimings(await compute());
  if (refresh) {
    mkdirSync(ANSWERS_DIR, { recursive: true });
    writeFileSync(file, fileText(key, answer));
  } else if (!fresh) {
    mkdirSync(dirname(keptFile), { recursive: true });
    const partial = `${keptFile}.${process.pid}.partial`;
    writeFileSync(partial, answerBytes(answer), { flag: 'wx' });
    renameSync(partial, keptFile);
  }
  return { answer, source: 'computed' };
}
