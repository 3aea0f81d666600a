/**
 * The Action's and the builder's code, loaded by their entries (main.ts, builder-main.ts) once
 * the process is set up. In the bundle (scripts/build-action.mjs) each is a CommonJS file
 * beside the entry, loaded with require(): a CommonJS part can require ts-morph from a file of
 * its own on first use, which the passes alone do, so no other run reads its 3.4 MB.
 */
export const loadRunAction = () => import('./run-action.js');
export const loadRunBuilderStage = () => import('./run-builder-stage.js');
