import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/** The README's "Commands" section: the table a new user reads to learn what the CLI does. */
function commandsSection(): string {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('\n## Commands\n');
  const end = readme.indexOf('\n## ', start + 1);
  expect(start).toBeGreaterThan(-1);
  return readme.slice(start, end);
}

describe('the README and aureus --help', () => {
  it('lists in the Commands table every command aureus --help names', async () => {
    const help = await runCliInProcess(['--help'], process.cwd());
    expect(help.code).toBe(0);
    const commands = [...help.stdout.matchAll(/^ {2}aureus ([a-z-]+(?: [a-z-]+)?)/gm)].map(
      (match) => `aureus ${match[1]}`,
    );
    expect(commands).toContain('aureus baseline');
    const table = commandsSection();
    const missing = commands.filter((command) => !new RegExp(`\`${command}[\` \\\\]`).test(table));
    expect(missing).toEqual([]);
  });
});
