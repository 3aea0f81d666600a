/**
 * The Action's and the builder's code, loaded by their entries (main.ts, builder-main.ts) once
 * the process is set up. In the bundle (scripts/build-action.mjs) each is a CommonJS file
 * beside the entry, loaded with require(): Node 20 keeps V8's compiled code for a large
 * CommonJS module (compiled-code-cache.ts) but for no ES module, and compiling the Action's
 * 7.6 MB anew was most of what every start cost.
 */
export const loadRunAction = () => import('./run-action.js');
export const loadRunBuilderStage = () => import('./run-builder-stage.js');
