// The ESLint rules the benchmarks run beside AUREUS: ESLint's own measures of the complexity
// AUREUS prices, at their defaults (bench/check.mjs on whole repositories, bench/hook.mjs on a
// staged change).
export const ESLINT_COMPLEXITY_RULES = [
  'complexity',
  'max-lines',
  'max-lines-per-function',
  'max-depth',
  'max-params',
  'max-classes-per-file',
];
