import { setFlagsFromString } from 'node:v8';
import { runAction } from './run-action.js';

// As bin/aureus.js does: the tree-sitter grammars compiled lazily with the baseline compiler,
// which saves a pull request's run the full compilation of grammars it barely uses.
setFlagsFromString('--wasm-lazy-compilation');
setFlagsFromString('--liftoff-only');

/** The process entry behind action.yml (bundled into dist/). */
process.exitCode = await runAction(process.env);
