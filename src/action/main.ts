import { runAction } from './run-action.js';

/** The process entry behind action.yml (bundled into dist/). */
process.exitCode = await runAction(process.env);
