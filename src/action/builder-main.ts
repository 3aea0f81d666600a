import { setFlagsFromString } from 'node:v8';
import { codeCacheFolder, enableCodeCache } from '../memory/compiled-code-cache.js';
import { loadRunBuilderStage } from './action-parts.js';

// As the Action's own entry: grammars compiled lazily with the baseline compiler.
setFlagsFromString('--wasm-lazy-compilation');
setFlagsFromString('--liftoff-only');

// Before the steps are loaded, as the Action's entry: the steps' processes and the agent's
// share V8's compiled code instead of compiling the bundle and TypeScript each.
enableCodeCache(codeCacheFolder(process.env));
const { runBuilderStage } = await loadRunBuilderStage();

/** The process entry behind builder/action.yml (bundled into dist/builder.mjs). */
process.exitCode = await runBuilderStage(process.argv[2], process.env);
