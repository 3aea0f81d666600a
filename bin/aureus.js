#!/usr/bin/env node
// The installed command: everything lives in the compiled CLI.
await import('../dist/cli/main.js');
