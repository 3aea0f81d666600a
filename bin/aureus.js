#!/usr/bin/env node
// The installed command: the CLI, bundled by `npm run build` (scripts/build-cli.mjs).
import { setFlagsFromString } from 'node:v8';

// The tree-sitter grammars are WebAssembly of up to 1.4 MB, compiled anew by every process.
// Compiled lazily, function by function, with the baseline compiler only, a run that parses a
// few changed files (a git hook, a warm re-run) saves 100-150 ms, and a cold run over a whole
// repository measured no slower. Set before anything compiles WebAssembly.
setFlagsFromString('--wasm-lazy-compilation');
setFlagsFromString('--liftoff-only');

await import('../dist/cli-bundle/aureus.mjs');
