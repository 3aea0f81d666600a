import { setFlagsFromString } from 'node:v8';
import { codeCacheFolder, enableCodeCache } from '../memory/compiled-code-cache.js';
import { loadRunAction } from './action-parts.js';

// As bin/aureus.js does: the tree-sitter grammars compiled lazily with the baseline compiler,
// which saves a pull request's run the full compilation of grammars it barely uses.
setFlagsFromString('--wasm-lazy-compilation');
setFlagsFromString('--liftoff-only');

// The Action's code first, then the compiled-code cache, as the CLI has it, for what the run
// loads later: TypeScript (9 MB) and ts-morph are then compiled once per machine, not once per
// run. Not for the Action's own part: Node 20's store runs a module as a vm.Script, in which
// its dynamic import() (web-tree-sitter's) has no loader. The folder is the user's cache
// folder (on a hosted runner the runner user's home, never the checkout in the workspace,
// which codeCacheFolder refuses).
const { runAction } = await loadRunAction();
enableCodeCache(codeCacheFolder(process.env));

/** The process entry behind action.yml (bundled into dist/). */
process.exitCode = await runAction(process.env);
