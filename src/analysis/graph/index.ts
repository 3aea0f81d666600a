export { type CycleOptions, findCycles } from './find-cycles.js';
export { buildModuleGraph, type ModuleEdge, type ModuleGraph } from './module-graph.js';
export {
  groupModules,
  type ModuleLevelEdge,
  moduleEdges,
  type PolicyModules,
} from './policy-modules.js';
