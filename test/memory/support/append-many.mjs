// Usage: node append-many.mjs <journal> <count|forever> <id> [padBytes] [--gated]
// Appends records {id, i, pad} one after another and prints each i once it is written, so a
// parent can kill it at a known point. --gated: prints "ready" once the library is loaded and
// appends nothing until a line arrives on stdin, so that a parent can release every writer at
// once, whatever each process took to start.
import { createInterface } from 'node:readline';
import { loadDist } from './load-dist.mjs';

const args = process.argv.slice(2);
const gated = args.includes('--gated');
const [path, countArg, id, padArg] = args.filter((arg) => arg !== '--gated');
if (path === undefined || countArg === undefined || id === undefined) {
  process.stderr.write(
    'usage: node append-many.mjs <journal> <count|forever> <id> [padBytes] [--gated]\n',
  );
  process.exit(2);
}
const count = countArg === 'forever' ? Number.POSITIVE_INFINITY : Number(countArg);
const pad = 'x'.repeat(Number(padArg ?? 0));
const { appendToJournal } = await loadDist('journal');
if (gated) {
  const lines = createInterface({ input: process.stdin });
  const go = new Promise((resolve) => lines.once('line', resolve));
  process.stdout.write('ready\n');
  await go;
  lines.close();
}
for (let i = 0; i < count; i++) {
  await appendToJournal(path, { id, i, pad });
  process.stdout.write(`${i}\n`);
}
