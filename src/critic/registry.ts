import type { Rule } from './rule.js';
import { circularDependency } from './rules/circular-dependency.js';
import { deepInheritance } from './rules/deep-inheritance.js';
import { dependencyBudget } from './rules/dependency-budget.js';
import { diContainer } from './rules/di-container.js';
import { eventBus } from './rules/event-bus.js';
import { fileBudget } from './rules/file-budget.js';
import { globalMutableState } from './rules/global-mutable-state.js';
import { godClass } from './rules/god-class.js';
import { locBudget } from './rules/loc-budget.js';
import { moduleBudget } from './rules/module-budget.js';
import { oversizedAdapter } from './rules/oversized-adapter.js';
import { pluginRegistry } from './rules/plugin-registry.js';
import { prematureAbstraction } from './rules/premature-abstraction.js';
import { reflection } from './rules/reflection.js';
import { singleBackendRepository } from './rules/single-backend-repository.js';
import { unparsableFile } from './rules/unparsable-file.js';

/**
 * Every rule the critic runs, in the order of `forbidden_patterns` in the policy schema.
 * Shared conventions (each rule's doc comment says where it departs from them): a rule reports
 * places in product files only, never tests or generated code (PathKinds.isProduct; cycles
 * and unparsable files excepted); "more than the limit" is a finding, exactly the limit is not; a symbol never
 * holds a line number (fingerprint.ts).
 */
export const RULES: readonly Rule[] = [
  godClass,
  deepInheritance,
  circularDependency,
  globalMutableState,
  reflection,
  prematureAbstraction,
  diContainer,
  pluginRegistry,
  eventBus,
  singleBackendRepository,
  oversizedAdapter,
  dependencyBudget,
  moduleBudget,
  fileBudget,
  locBudget,
  unparsableFile,
];
