import { setFlagsFromString } from 'node:v8';
import { codeCacheFolder, enableCodeCache } from '../memory/compiled-code-cache.js';
import { loadRunAction } from './action-parts.js';

// As bin/aureus.js does: the tree-sitter grammars compiled lazily with the baseline compiler,
// which saves a pull request's run the full compilation of grammars it barely uses.
setFlagsFromString('--wasm-lazy-compilation');
setFlagsFromString('--liftoff-only');

// Before the Action itself is loaded, as the CLI does: TypeScript (9 MB) is then compiled once
// per machine, not once per run. The folder is the user's cache folder (on a hosted runner,
// the runner user's home, never the checkout in the workspace, which codeCacheFolder refuses).
enableCodeCache(codeCacheFolder(process.env));
const { runAction } = await loadRunAction();

/** The process entry behind action.yml (bundled into dist/). */
process.exitCode = await runAction(process.env);
