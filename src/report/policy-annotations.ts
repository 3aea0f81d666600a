import { formatPolicyProblem, type PolicyProblem } from '../policy/policy-problem.js';
import type { Annotation } from './render-annotations.js';

/** A broken policy's problems as annotations on the policy file itself, line by line. */
export function policyAnnotations(problems: readonly PolicyProblem[]): Annotation[] {
  return problems.map((problem) => ({
    level: 'error',
    // `.aureus/policy.yaml@1a2b3c`: the annotation goes on the file, not on a commit-qualified name.
    file: problem.file.replace(/@[0-9a-f]+$/, ''),
    startLine: problem.line,
    endLine: problem.line,
    title: 'AUREUS policy error',
    message: formatPolicyProblem(problem),
  }));
}
