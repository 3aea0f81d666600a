/**
 * Exit codes shared by every surface: 0 pass (warnings allowed), 1 the policy says no,
 * 2 AUREUS could not decide (configuration, usage, git, API or environment error).
 */
export const ExitCode = { pass: 0, rejected: 1, error: 2 } as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * A known failure with a message for the user and a hint that says how to fix it.
 * Entry points print `message` and `To resolve, hint`; the stack only with --debug.
 */
export class AureusError extends Error {
  readonly hint: string;
  readonly exitCode: ExitCode;

  constructor(message: string, hint: string, exitCode: ExitCode = ExitCode.error) {
    super(message);
    this.name = 'AureusError';
    this.hint = hint;
    this.exitCode = exitCode;
  }
}
