import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { extractOxcFacts } from '../../src/analysis/oxc/oxc-facts.js';
import type { FileFacts } from '../../src/model/facts.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { analyzeRepository } from '../../src/scan/analyze-repository.js';
import { analyzeSnapshot } from '../../src/scan/analyze-snapshot.js';
import { collectFacts } from '../../src/scan/collect-facts.js';
import type { ScriptJob } from '../../src/scan/facts-worker.js';
import { gitRepositorySource } from '../../src/scan/git-repository-source.js';
import { startScriptWorkers, type WorkerTuning } from '../../src/scan/parse-in-workers.js';
import type { RepositorySource } from '../../src/scan/repository-source.js';
import { commitSnapshot, workingTreeSnapshot } from '../../src/scan/working-tree-snapshot.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { useOwnCacheFolder } from '../support/own-cache-folder.js';
import { makeTempDir } from '../support/temp-dir.js';

const NODE_MODULES = new URL('../../node_modules/', import.meta.url);

/**
 * Real code written by others, over 2 MB in all (what a run needs before it starts workers):
 * TypeScript's declaration files and dependency-cruiser's JavaScript sources.
 */
const CORPUS = [
  { folder: 'typescript/lib', pattern: /\.d\.ts$/ },
  { folder: 'dependency-cruiser/src', pattern: /\.(mjs|cjs|js)$/ },
];
/** AUREUS's blob limit: larger files are not read, so they stay out of the corpus. */
const MAX_BYTES = 1024 * 1024;

function corpusFiles(): Array<{ path: string; text: string }> {
  return CORPUS.flatMap(({ folder, pattern }) => {
    const root = new URL(`${folder}/`, NODE_MODULES);
    return readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((path) => pattern.test(path) && statSync(new URL(path, root)).size <= MAX_BYTES)
      .sort()
      .map((path) => ({
        path: `${folder}/${path}`,
        text: readFileSync(new URL(path, root), 'utf8'),
      }));
  });
}

/** Workers sized for `jobs`, given them at once. */
function parseScriptsInWorkers(
  jobs: readonly ScriptJob[],
  onAnswered: (files: number) => void,
  tuning: WorkerTuning = {},
) {
  const characters = jobs.reduce((sum, job) => sum + job.text.length, 0);
  return startScriptWorkers(characters, tuning)?.parse(jobs, (answers) =>
    onAnswered(answers.length),
  );
}

const language = (path: string) => (path.endsWith('.ts') ? 'typescript' : 'javascript');
const corpus = corpusFiles();
const jobs: ScriptJob[] = corpus.map(({ path, text }, index) => ({
  index,
  language: language(path),
  text,
}));

describe('parsing TS/JS on worker threads', () => {
  it('gives every file exactly the facts this thread gives it, and reports each file once', async () => {
    let answered = 0;
    const parsing = parseScriptsInWorkers(jobs, (files) => (answered += files), {
      minCharacters: 0,
    });
    if (parsing === undefined) throw new Error('no workers started: is dist/ built?');
    const facts = await parsing.facts;
    expect(parsing.threads).toBeGreaterThanOrEqual(2);
    expect(facts.size).toBe(jobs.length);
    expect(answered).toBe(jobs.length);
    for (const job of jobs) {
      expect({ file: corpus[job.index]?.path, facts: facts.get(job.index) }).toEqual({
        file: corpus[job.index]?.path,
        facts: extractOxcFacts(job.text, job.language),
      });
    }
  });

  it('leaves a file with a syntax error to this thread, whose parser has the last word on it', async () => {
    const broken: ScriptJob = {
      index: jobs.length,
      language: 'typescript',
      text: 'export const = ;\n',
    };
    const parsing = parseScriptsInWorkers([...jobs.slice(0, 40), broken], () => undefined, {
      minCharacters: 0,
    });
    if (parsing === undefined) throw new Error('no workers started: is dist/ built?');
    const facts = await parsing.facts;
    expect(facts.size).toBe(40);
    expect(facts.has(broken.index)).toBe(false);
  });

  it('stays on this thread for little text', () => {
    const small = jobs.filter((job) => job.text.length < 10_000).slice(0, 20);
    expect(parseScriptsInWorkers(small, () => undefined)).toBeUndefined();
  });

  it('stays on this thread when no worker can be started', () => {
    const parsing = parseScriptsInWorkers(jobs.slice(0, 40), () => undefined, {
      minCharacters: 0,
      workerFile: new URL('http://example.test/facts-worker.mjs'),
    });
    expect(parsing).toBeUndefined();
  });

  it('leaves every file to this thread when its workers die, and never rejects', async () => {
    const temp = await makeTempDir('broken-worker');
    try {
      const broken = join(temp.path, 'broken-worker.mjs');
      await import('node:fs/promises').then(({ writeFile }) =>
        writeFile(broken, "throw new Error('this worker cannot start');\n"),
      );
      const parsing = parseScriptsInWorkers(jobs.slice(0, 40), () => undefined, {
        minCharacters: 0,
        workerFile: pathToFileURL(broken),
      });
      expect((await parsing?.facts)?.size).toBe(0);
    } finally {
      await temp.remove();
    }
  });
});

describe('a whole-repository analysis large enough for worker threads', () => {
  const caches = useOwnCacheFolder('all');
  let restoreGit: () => Promise<void>;
  let repo: Repo & { remove(): Promise<void> };

  beforeAll(async () => {
    restoreGit = await isolateGit();
    repo = await makeRepo('parse-in-workers');
    for (const { path, text } of corpus) repo.write(path, text);
    repo.commit('real code');
  });

  afterAll(async () => {
    await repo.remove();
    await restoreGit();
  });

  it('parses on several threads, files keep their own facts, and the cache holds them', async () => {
    const cold = await analyzeRepository(repo.dir, defaultPolicy());
    expect(cold.stats.parseThreads).toBeGreaterThanOrEqual(2);
    expect(cold.stats.parsed).toBe(corpus.length);
    const expected = new Map<string, FileFacts>(
      corpus.map(({ path, text }) => [path, extractOxcFacts(text, language(path))]),
    );
    expect(new Map(cold.facts)).toEqual(expected);

    const warm = await analyzeRepository(repo.dir, defaultPolicy());
    expect({ parsed: warm.stats.parsed, threads: warm.stats.parseThreads }).toEqual({
      parsed: 0,
      threads: 1,
    });
    expect(new Map(warm.facts)).toEqual(expected);
  });
  // A worker is an OS thread from the moment it is created: on Linux, /proc lists them by thread
  // id. New threads are told by id, not by count: the previous test's workers may still be
  // ending while this one starts its own, and a count would see one replace the other.
  const threads = () => new Set(readdirSync('/proc/self/task'));
  const newThreads = (before: Set<string>) =>
    readdirSync('/proc/self/task').filter((id) => !before.has(id)).length;
  const onLinux = existsSync('/proc/self/task');

  /** The repository's own source, its blobs read while watching for new threads. */
  function watchingSource(seen: { before: Set<string>; atRead: number; beforeTexts: number }) {
    const git = gitRepositorySource(repo.dir);
    const source: RepositorySource = {
      ...git,
      readBlobs: async (files, onSizes) => {
        seen.atRead = newThreads(seen.before);
        const blobs = await git.readBlobs(files, onSizes);
        // The texts are held back until the workers started on the sizes have appeared, however
        // long a busy machine takes to create them: workers that waited for the texts would
        // never appear, and the test would fail on jest's watchdog instead of a clock of its own.
        while (newThreads(seen.before) < 2) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        seen.beforeTexts = newThreads(seen.before);
        return blobs;
      },
    };
    return source;
  }

  (onLinux ? it : it.skip)(
    'starts its workers once git has told the sizes, before it hands over the texts',
    async () => {
      rmSync(join(caches.path(), 'facts'), { recursive: true, force: true });
      const seen = { before: threads(), atRead: 0, beforeTexts: 0 };
      const snapshot = await workingTreeSnapshot(repo.dir);
      const result = await analyzeSnapshot(watchingSource(seen), snapshot, defaultPolicy());
      expect(seen.atRead).toBe(0);
      expect(seen.beforeTexts).toBeGreaterThanOrEqual(2);
      expect(result.stats.parseThreads).toBeGreaterThanOrEqual(2);
      expect(result.stats.parsed).toBe(corpus.length);
    },
  );

  (onLinux ? it : it.skip)(
    'starts them before reading at all when the listing gives the sizes (a commit)',
    async () => {
      rmSync(join(caches.path(), 'facts'), { recursive: true, force: true });
      const seen = { before: threads(), atRead: 0, beforeTexts: 0 };
      const snapshot = await commitSnapshot(repo.dir, 'HEAD');
      const result = await analyzeSnapshot(watchingSource(seen), snapshot, defaultPolicy());
      expect(seen.beforeTexts).toBeGreaterThanOrEqual(2);
      expect(result.stats.parseThreads).toBeGreaterThanOrEqual(2);
      expect(result.stats.parsed).toBe(corpus.length);
    },
  );
});

describe('a run this thread parses alone', () => {
  it('starts what it prepares for later once git has told the sizes, before the texts arrive', async () => {
    const restore = await isolateGit();
    const small = await makeRepo('one-thread-run');
    try {
      small.write('src/a.ts', 'export const a = 1;\n');
      small.write('src/b.ts', "import { a } from './a.js';\nexport const b = a;\n");
      small.commit('small');
      const git = gitRepositorySource(small.dir);
      const order: string[] = [];
      const source: RepositorySource = {
        ...git,
        readBlobs: async (files, onSizes) => {
          const blobs = await git.readBlobs(files, (sizes) => {
            order.push('sizes');
            onSizes?.(sizes);
          });
          order.push('texts');
          return blobs;
        },
      };
      const files = (await workingTreeSnapshot(small.dir)).map((file) => ({
        ...file,
        language: 'typescript' as const,
      }));
      const collected = await collectFacts(source, files, {
        parser: 'auto',
        useCache: false,
        whileParsing: async () => {
          order.push('prepare');
        },
      });
      // Asked again before the parse; preparing is idempotent (the resolver loads once).
      expect(order.slice(0, 3)).toEqual(['sizes', 'prepare', 'texts']);
      expect({ parsed: collected.parsed, threads: collected.parseThreads }).toEqual({
        parsed: 2,
        threads: 1,
      });
    } finally {
      await small.remove();
      await restore();
    }
  });
});
