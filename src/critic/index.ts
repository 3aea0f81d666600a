export { type CoreSize, coreSize } from './core-size.js';
export { fingerprintOf } from './fingerprint.js';
export { RULES } from './registry.js';
export type { ChangeContext, ProjectState, Rule, RuleContext } from './rule.js';
export { runCritic } from './run-critic.js';
