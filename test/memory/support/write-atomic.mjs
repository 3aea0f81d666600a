// Usage: node write-atomic.mjs <path> <data>
// Runs writeFileAtomic in a process of its own (the tests start it as an unprivileged user to
// see a permission failure even when the suite runs as root). Prints the error code on failure.
import { loadDist } from './load-dist.mjs';

const [path, data] = process.argv.slice(2);
if (path === undefined || data === undefined) {
  process.stderr.write('usage: node write-atomic.mjs <path> <data>\n');
  process.exit(2);
}
const { writeFileAtomic } = await loadDist('atomic-write');
try {
  await writeFileAtomic(path, data);
} catch (error) {
  process.stdout.write(`${error.code ?? error.message}\n`);
  process.exit(1);
}
