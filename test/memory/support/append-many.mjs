// Usage: node append-many.mjs <journal> <count|forever> <id> [padBytes]
// Appends records {id, i, pad} one after another and prints each i once it is written, so a
// parent can kill it at a known point.
import { loadDist } from './load-dist.mjs';

const [path, countArg, id, padArg] = process.argv.slice(2);
if (path === undefined || countArg === undefined || id === undefined) {
  process.stderr.write('usage: node append-many.mjs <journal> <count|forever> <id> [padBytes]\n');
  process.exit(2);
}
const count = countArg === 'forever' ? Number.POSITIVE_INFINITY : Number(countArg);
const pad = 'x'.repeat(Number(padArg ?? 0));
const { appendToJournal } = await loadDist('journal');
for (let i = 0; i < count; i++) {
  await appendToJournal(path, { id, i, pad });
  process.stdout.write(`${i}\n`);
}
