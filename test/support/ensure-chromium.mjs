import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's Chromium, which the dashboard's browser test drives through playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';
const INSTALL = 'apt-get install -y --no-install-recommends chromium';

/**
 * Installs Debian's Chromium when it is missing, as root with apt-get; anywhere else fails with
 * the command to run. Never skipped: a browser test that quietly did not run would read as passed.
 */
export function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const aptGet = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!root || !aptGet)
    throw new Error(
      `the browser tests need Chromium at ${CHROMIUM}, and it is missing. Install it with: sudo apt-get update && sudo ${INSTALL}`,
    );
  process.stderr.write(`Chromium is missing at ${CHROMIUM}: installing it (${INSTALL}).\n`);
  for (const command of ['apt-get update', INSTALL]) {
    const [program, ...args] = command.split(' ');
    const run = spawnSync(program, args, { stdio: 'inherit' });
    if (run.status !== 0)
      throw new Error(`"${command}" failed (exit ${run.status}); run it yourself, then the tests.`);
  }
}
