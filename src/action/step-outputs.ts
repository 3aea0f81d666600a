import * as core from '@actions/core';

/**
 * Writes the step's outputs (`verdict`, `total-cost`, …) to the runner's GITHUB_OUTPUT file.
 * They are how later steps read the verdict, but the verdict itself stands without them in the
 * exit code, the job summary and the check run: when the runner gives no usable file, a warning
 * says so and the outputs are skipped, never a crash that would change the exit code. Unset,
 * @actions/core would fall back to `::set-output`, a workflow command GitHub has deprecated.
 */
export function setStepOutputs(
  outputs: Readonly<Record<string, string>>,
  env: NodeJS.ProcessEnv,
): void {
  if (env.GITHUB_OUTPUT === undefined || env.GITHUB_OUTPUT === '') {
    core.warning(
      'GITHUB_OUTPUT is not set, so the step outputs (verdict, total-cost, …) are not written. To resolve, run AUREUS as a step of a GitHub Actions job: the runner sets it.',
    );
    return;
  }
  try {
    for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
  } catch (error) {
    core.warning(
      `AUREUS could not write the step outputs to GITHUB_OUTPUT: ${error instanceof Error ? error.message : String(error)}. To resolve, point GITHUB_OUTPUT at a writable file, as the runner does.`,
    );
  }
}
