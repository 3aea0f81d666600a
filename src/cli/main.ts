import { readFileSync } from 'node:fs';
import { codeCacheFolder, enableCodeCache } from '../memory/compiled-code-cache.js';
import { errnoCode } from '../memory/errno-code.js';

/** The process entry behind `bin/aureus.js`: wires the real process to the in-process CLI. */
// Before the CLI itself is loaded, so that Node ≥ 22.1 keeps its compiled code too.
enableCodeCache(codeCacheFolder(process.env));

// A reader that stops early (`aureus analyze | head`) closes the pipe: what is left to print has
// nowhere to go, and the run still ends with its own exit code, not with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: unknown) => {
    if (errnoCode(error) !== 'EPIPE') throw error;
  });
}
const { runCli } = await import('./run-cli.js');

const manifest: unknown = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
);
const version =
  typeof manifest === 'object' && manifest !== null && 'version' in manifest
    ? String(manifest.version)
    : 'unknown';

/** One question on the terminal, asked on stderr so that stdout stays the command's output. */
async function ask(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    // Input that ends (Ctrl-D) answers nothing, which is a no, rather than waiting for ever.
    const ended = new Promise<string>((resolve) => prompt.once('close', () => resolve('')));
    return await Promise.race([prompt.question(question), ended]);
  } finally {
    prompt.close();
  }
}

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
    ...(process.stdin.isTTY === true && process.stdout.isTTY === true ? { ask } : {}),
    width:
      columnsSetting(process.env.COLUMNS) ??
      (process.stdout.isTTY === true ? process.stdout.columns : undefined),
  },
  version,
);

/** COLUMNS as terminals and shells set it: a positive whole number, or nothing. */
function columnsSetting(value: string | undefined): number | undefined {
  const columns = Number(value);
  return value !== undefined && Number.isSafeInteger(columns) && columns > 0 ? columns : undefined;
}
