import { createRequire } from 'node:module';
import type * as TypeScript from 'typescript';

/**
 * The TypeScript compiler, loaded with require(). Importing its 9 MB CommonJS file as an ES
 * module makes Node scan it for export names first, which costs about 400 ms of every run that
 * parses or resolves with it; require() skips that. Types still come from `import type`.
 */
export const typescript: typeof TypeScript = createRequire(import.meta.url)('typescript');
