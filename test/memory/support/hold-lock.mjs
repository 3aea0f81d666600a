// Usage: node hold-lock.mjs <journal>
// Takes the journal's lock the way appendToJournal does, says "locked", then holds it until
// killed: a SIGKILL leaves the lock folder behind, as a crashed writer would.
import { lock } from 'proper-lockfile';

const [path] = process.argv.slice(2);
if (path === undefined) {
  process.stderr.write('usage: node hold-lock.mjs <journal>\n');
  process.exit(2);
}
await lock(path, { realpath: false, stale: 5000 });
process.stdout.write('locked\n');
setInterval(() => undefined, 60_000);
