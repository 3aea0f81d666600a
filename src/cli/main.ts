import { readFileSync } from 'node:fs';
import { runCli } from './run-cli.js';

/** The process entry behind `bin/aureus.js`: wires the real process to the in-process CLI. */
const manifest: unknown = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
);
const version =
  typeof manifest === 'object' && manifest !== null && 'version' in manifest
    ? String(manifest.version)
    : 'unknown';

process.exitCode = await runCli(
  process.argv.slice(2),
  {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    color: process.stdout.isTTY === true && process.env.NO_COLOR === undefined,
    progress: {
      interactive: process.stderr.isTTY === true && !process.env.CI,
      columns: process.stderr.columns ?? 80,
    },
  },
  version,
);
