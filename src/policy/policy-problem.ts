import { AureusError } from '../model/errors.js';
import { oneLine } from '../report/plain-text.js';

/** One thing wrong with a policy file, at the place it is wrong. */
export interface PolicyProblem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** What is wrong, as a sentence. */
  readonly message: string;
  /** How to fix it, completing "To resolve, …". */
  readonly hint: string;
}

/**
 * `file:line:col: message To resolve, hint` — the form editors and terminals link to. The
 * message echoes what the file holds (an unknown key, a value), so it comes escaped: one line,
 * no ESC or other control reaches a terminal or a log.
 */
export function formatPolicyProblem(problem: PolicyProblem): string {
  return oneLine(
    `${problem.file}:${problem.line}:${problem.column}: ${problem.message} To resolve, ${problem.hint}`,
  );
}

/** A policy that cannot be used; carries every problem found, in file order. */
export class PolicyError extends AureusError {
  readonly problems: readonly PolicyProblem[];

  constructor(problems: readonly PolicyProblem[]) {
    const [first] = problems;
    super(problems.map(formatPolicyProblem).join('\n'), first?.hint ?? 'fix the policy file.');
    this.name = 'PolicyError';
    this.problems = problems;
  }
}
