import * as core from '@actions/core';
import { environmentError } from '../memory/environment-error.js';
import { AureusError, ExitCode } from '../model/errors.js';
import { escapeControls } from '../report/plain-text.js';
import { runAgentProcess } from './agent-child.js';
import { runBuildStep, runPrepareStep } from './builder-steps.js';

const STAGES: Record<string, (env: NodeJS.ProcessEnv) => Promise<number>> = {
  prepare: runPrepareStep,
  build: runBuildStep,
  agent: runAgentProcess,
};

/**
 * What `node dist/builder.mjs <stage>` runs: `prepare` and `build` are builder/action.yml's two
 * script steps, `agent` the child the build step starts with an allow-listed environment. An
 * error ends here, said with its fix (exit 2).
 */
export async function runBuilderStage(
  stage: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  try {
    const run = stage === undefined ? undefined : STAGES[stage];
    if (run === undefined)
      throw new AureusError(
        `dist/builder.mjs was started with ${JSON.stringify(stage ?? '')}, not prepare or build.`,
        'use the builder step as builder/action.yml runs it: uses: <owner>/aureus/builder@<commit>.',
      );
    return await run(env);
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
