// Usage: node facts-cache-worker.mjs <root> <put|putMany|read> <keys> <rounds>
// One process of the concurrency test: writes the same keys as its siblings (one entry at a time
// or as packs), or reads them while they are written. A reader fails if a key it has seen once
// is ever missing again: whole-file replacement means an entry, once there, stays readable.
import { createHash } from 'node:crypto';
import { loadDist } from './load-dist.mjs';

const [root, mode, keyCount, roundCount] = process.argv.slice(2);
if (root === undefined || mode === undefined) {
  process.stderr.write(
    'usage: node facts-cache-worker.mjs <root> <put|putMany|read> <keys> <rounds>\n',
  );
  process.exit(2);
}
const { createFactsCache } = await loadDist('facts-cache');
const keys = Number(keyCount ?? 50);
const rounds = Number(roundCount ?? 3);

function factsOf(i) {
  return {
    language: 'typescript',
    lines: { code: i, comment: 0, blank: 0 },
    classes: [],
    abstractions: [],
    functions: [],
    exports: [],
    mutableState: [],
    imports: [
      { specifier: `./m${i}.js`, typeOnly: false, reexport: false, dynamic: false, line: 1 },
    ],
    reflection: [],
    eventSubscriptions: [],
    diContainers: [],
    qualifiedCalls: [],
    // Padding, so that a torn write would be likely to show if writes were not atomic.
    diagnostics: ['x'.repeat(20_000 + i)],
  };
}
const entries = Array.from({ length: keys }, (_, i) => ({
  blobSha: createHash('sha1').update(`blob ${i}`).digest('hex'),
  language: 'typescript',
  facts: factsOf(i),
}));

if (mode === 'read') {
  const seen = new Set();
  for (let round = 0; round < rounds; round++) {
    const cache = createFactsCache(root);
    for (const [i, entry] of entries.entries()) {
      const facts = await cache.get(entry.blobSha, entry.language);
      if (facts === undefined && seen.has(i))
        throw new Error(`entry ${i} was readable, then missing`);
      if (facts !== undefined) {
        if (facts.lines.code !== i)
          throw new Error(`entry ${i} holds the facts of ${facts.lines.code}`);
        seen.add(i);
      }
    }
  }
  process.stdout.write(`${seen.size}\n`);
} else {
  for (let round = 0; round < rounds; round++) {
    const cache = createFactsCache(root);
    if (mode === 'putMany') await cache.putMany(entries);
    else await Promise.all(entries.map((e) => cache.put(e.blobSha, e.language, e.facts)));
  }
}
