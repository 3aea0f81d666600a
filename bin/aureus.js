#!/usr/bin/env node
// The installed command: the CLI, bundled by `npm run build` (scripts/build-cli.mjs).
await import('../dist/cli-bundle/aureus.mjs');
