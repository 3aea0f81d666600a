import { setFlagsFromString } from 'node:v8';
import { codeCacheFolder, enableCodeCache } from '../memory/compiled-code-cache.js';
import { loadRunBuilderStage } from './action-parts.js';

// As the Action's own entry: grammars compiled lazily with the baseline compiler.
setFlagsFromString('--wasm-lazy-compilation');
setFlagsFromString('--liftoff-only');

// As the Action's entry: the steps' code first, then the compiled-code cache for what they
// load later (TypeScript, ts-morph), shared by the steps' processes and the agent's.
const { runBuilderStage } = await loadRunBuilderStage();
enableCodeCache(codeCacheFolder(process.env));

/** The process entry behind builder/action.yml (bundled into dist/builder.mjs). */
process.exitCode = await runBuilderStage(process.argv[2], process.env);
