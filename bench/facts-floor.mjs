// Usage: node bench/facts-floor.mjs <repo> [sources=src]
// AUREUS's own facts extraction and nothing else, as one process: start Node, read every file
// the parse-only floor reads (parse-floor.mjs: the same list, the same 1 MiB limit), and extract
// each file's facts with AUREUS's oxc extractor, on the threads AUREUS itself would use for that
// much text (its own worker pool, parse-in-workers.ts, which decides), or on this thread when
// it would use one. No git, no cache, no resolution, no graph, no output beyond one line.
//
// Between the parse-only floor and AUREUS cold it shows where the time goes: the floor to this
// is the walk that turns a tree into facts (and the threads' own overhead), this to AUREUS cold
// is everything around the extraction.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { detectLanguage } from '../dist/analysis/detect-language.js';
import { startScriptWorkers } from '../dist/scan/parse-in-workers.js';
import { sourceFiles } from '../scripts/reference/codebases.mjs';
import { withinReadLimit } from './read-limit.mjs';

/**
 * The extractor as the CLI bundle holds it, the very code AUREUS runs: the chunk its facts worker
 * imports it from (the modules under dist/ load unbundled, some milliseconds slower).
 */
async function bundledExtractor() {
  const bundle = new URL('../dist/cli-bundle/', import.meta.url);
  const worker = readFileSync(new URL('facts-worker.mjs', bundle), 'utf8');
  const chunk = /import \{\s*extractOxcFacts\s*\} from "(\.\/chunks\/[^"]+)"/.exec(worker)?.[1];
  if (chunk === undefined)
    throw new Error('no extractOxcFacts in the facts worker: run npm run build');
  return (await import(new URL(chunk, bundle).href)).extractOxcFacts;
}

async function extractHere(jobs) {
  const extractOxcFacts = await bundledExtractor();
  return jobs.map((job) => extractOxcFacts(job.text, job.language));
}

/** A file a worker did not answer (its extraction threw) is an error here, not a slower path. */
async function extractIn(workers, jobs) {
  const answered = await workers.parse(jobs, () => {}).facts;
  const facts = jobs.map((job) => answered.get(job.index));
  if (facts.includes(undefined)) throw new Error('a worker did not answer for every file');
  return facts;
}

const [dir, sources = 'src'] = process.argv.slice(2);
if (dir === undefined) {
  process.stderr.write('usage: node bench/facts-floor.mjs <repo> [sources=src]\n');
  process.exit(2);
}

const repo = resolve(dir);
const files = sourceFiles(repo, sources).filter((file) => withinReadLimit(repo, file));
const jobs = files.map((file, index) => ({
  index,
  language: detectLanguage(file),
  text: readFileSync(join(repo, file), 'utf8'),
}));
const characters = jobs.reduce((sum, job) => sum + job.text.length, 0);
const workers = startScriptWorkers(characters);
const facts = workers === undefined ? await extractHere(jobs) : await extractIn(workers, jobs);
// Used, so that the work cannot be judged dead; also a sanity check on the output.
const functions = facts.reduce((sum, fileFacts) => sum + fileFacts.functions.length, 0);
process.stdout.write(
  `${JSON.stringify({ files: files.length, threads: workers?.threads ?? 1, functions })}\n`,
);
