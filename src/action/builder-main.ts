import { setFlagsFromString } from 'node:v8';
import * as core from '@actions/core';
import { codeCacheFolder, enableCodeCache } from '../memory/compiled-code-cache.js';
import { environmentError } from '../memory/environment-error.js';
import { AureusError, ExitCode } from '../model/errors.js';
import { escapeControls } from '../report/plain-text.js';

// As the Action's own entry: grammars compiled lazily with the baseline compiler.
setFlagsFromString('--wasm-lazy-compilation');
setFlagsFromString('--liftoff-only');

// Before the steps are loaded, as the Action's entry: the steps' processes and the agent's
// share TypeScript's compiled code instead of compiling it each.
enableCodeCache(codeCacheFolder(process.env));
const [{ runAgentProcess }, { runBuildStep, runPrepareStep }] = await Promise.all([
  import('./agent-child.js'),
  import('./builder-steps.js'),
]);

const STAGES: Record<string, (env: NodeJS.ProcessEnv) => Promise<number>> = {
  prepare: runPrepareStep,
  build: runBuildStep,
  agent: runAgentProcess,
};

/**
 * The process entry behind builder/action.yml (bundled into dist/builder.mjs): `prepare` and
 * `build` are its two script steps, `agent` the child the build step starts with an
 * allow-listed environment. An error ends here, said with its fix (exit 2).
 */
async function main(stage: string | undefined): Promise<number> {
  try {
    const run = stage === undefined ? undefined : STAGES[stage];
    if (run === undefined)
      throw new AureusError(
        `dist/builder.mjs was started with ${JSON.stringify(stage ?? '')}, not prepare or build.`,
        'use the builder step as builder/action.yml runs it: uses: <owner>/aureus/builder@<commit>.',
      );
    return await run(process.env);
  } catch (error) {
    const explained = error instanceof AureusError ? error : environmentError(error, {});
    core.error(
      escapeControls(
        explained === undefined
          ? `AUREUS internal error: ${error instanceof Error ? error.message : String(error)}`
          : `${explained.message}\nTo resolve, ${explained.hint}`,
      ),
    );
    return ExitCode.error;
  }
}

process.exitCode = await main(process.argv[2]);
