// Usage: node facts-cache-measure.mjs [entries=5000] [folder]
// Measures the two layouts of the facts cache on this machine for a whole-repository run:
// loose files (put / get, one atomic fsynced file per entry) against one pack per run
// (putMany / getMany). Medians of 3 rounds, each in a fresh repository folder.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { createFactsCache } = await import(
  new URL('../../../dist/memory/facts-cache.js', import.meta.url).href
);

const count = Number(process.argv[2] ?? 5000);
const base = process.argv[3] ?? tmpdir();
const PARALLEL = 64;

/** Facts of a realistic size (~4 KB of JSON: 12 functions, 8 imports). */
function factsFor(i) {
  const span = { start: i % 50, end: (i % 50) + 20 };
  return {
    language: 'typescript',
    lines: { code: 120 + (i % 40), comment: 20, blank: 15 },
    classes: [
      {
        name: `Class${i}`,
        span,
        loc: 20,
        extends: null,
        implements: [],
        abstract: false,
        staticOnly: false,
        methods: 4,
      },
    ],
    abstractions: [],
    functions: Array.from({ length: 12 }, (_, f) => ({
      name: `function${f}`,
      kind: 'function',
      span,
      loc: 9,
      complexity: 1 + (f % 4),
      parameters: 2,
      calls: ['map', 'filter', `helper${f}`],
    })),
    imports: Array.from({ length: 8 }, (_, n) => ({
      specifier: `./module-${(i + n) % 997}.js`,
      typeOnly: n % 3 === 0,
      reexport: false,
      dynamic: false,
      line: n + 1,
    })),
    exports: [{ name: `value${i}`, typeOnly: false, line: 30 }],
    mutableState: [],
    reflection: [],
    eventSubscriptions: [],
    diContainers: [],
    qualifiedCalls: [],
    diagnostics: [],
  };
}

const entries = Array.from({ length: count }, (_, i) => ({
  blobSha: createHash('sha1').update(`blob ${i}`).digest('hex'),
  language: 'typescript',
  facts: factsFor(i),
}));

async function timed(work) {
  const start = process.hrtime.bigint();
  const result = await work();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
}

async function inBatches(items, work) {
  for (let i = 0; i < items.length; i += PARALLEL)
    await Promise.all(items.slice(i, i + PARALLEL).map(work));
}

async function round() {
  const root = await mkdtemp(join(base, 'aureus-facts-measure-'));
  try {
    const writer = createFactsCache(root);
    const looseWrite = await timed(() =>
      inBatches(entries, (e) => writer.put(e.blobSha, e.language, e.facts)),
    );
    const reader = createFactsCache(root);
    const looseRead = await timed(async () => {
      let hits = 0;
      await inBatches(entries, async (e) => {
        if (await reader.get(e.blobSha, e.language)) hits++;
      });
      return hits;
    });
    const packRoot = `${root}-pack`;
    try {
      const coldMiss = await timed(() => createFactsCache(packRoot).getMany(entries));
      const packWrite = await timed(() => createFactsCache(packRoot).putMany(entries));
      const packRead = await timed(
        async () => (await createFactsCache(packRoot).getMany(entries)).filter(Boolean).length,
      );
      return {
        looseWrite: looseWrite.ms,
        looseRead: looseRead.ms,
        looseHits: looseRead.result,
        coldMiss: coldMiss.ms,
        packWrite: packWrite.ms,
        packRead: packRead.ms,
        packHits: packRead.result,
      };
    } finally {
      await rm(packRoot, { recursive: true, force: true });
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const rounds = [];
for (let i = 0; i < 3; i++) rounds.push(await round());
const median = (key) => rounds.map((r) => r[key]).sort((a, b) => a - b)[1];
const row = (label, key) => `${label.padEnd(38)} ${median(key).toFixed(0).padStart(7)} ms`;
const bytes = JSON.stringify(entries[0].facts).length;
process.stdout.write(`${count} entries of ~${bytes} bytes in ${base}\n`);
process.stdout.write(`${row('loose: put each (64 at a time)', 'looseWrite')}\n`);
process.stdout.write(
  `${row('loose: get each (64 at a time)', 'looseRead')}  (${median('looseHits')} hits)\n`,
);
process.stdout.write(`${row('getMany on an empty cache', 'coldMiss')}\n`);
process.stdout.write(`${row('pack: putMany', 'packWrite')}\n`);
process.stdout.write(
  `${row('pack: getMany (fresh cache object)', 'packRead')}  (${median('packHits')} hits)\n`,
);
