// Usage: node scripts/build-cli.mjs   (part of `npm run build`)
// Bundles the CLI (src/cli/main.ts) with esbuild into dist/cli-bundle/, the module bin/aureus.js
// runs. A git hook pays Node's module loading on every commit: about 300 small ES modules cost
// 100–150 ms to resolve and link, one bundle a fraction of that. Commands stay lazy: each
// dynamic import becomes a chunk of its own, so `aureus ledger verify` never loads the parser.
// Packages that find files beside themselves stay external and load from node_modules:
// typescript (required on first use), web-tree-sitter (its .wasm beside its module) and
// oxc-parser (its native binary in a package of its own), and ts-morph, which carries its own
// TypeScript (9 MB that reads __filename).
// AUREUS_POLICY_BUILD_ID keys the parsed-policy cache (src/memory/policy-cache.ts) to this build,
// AUREUS_BUILD_ID the kept base sides of checks (src/memory/base-side-cache.ts).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'cli-bundle');

/** Every file under these decides how a policy parses; a parse cached by another build is void. */
const POLICY_INPUTS = ['package.json', 'schemas/policy.schema.json', 'src/policy', 'src/model'];

function filesOf(path) {
  const full = join(root, path);
  try {
    return readdirSync(full, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((entry) => filesOf(join(path, entry.name)));
  } catch {
    return [path];
  }
}

/** A hash of `paths`' files, names and bytes: changes whenever one of them does. */
function buildId(paths) {
  const hash = createHash('sha256');
  for (const file of paths.flatMap(filesOf))
    hash.update(file).update(readFileSync(join(root, file)));
  return hash.digest('hex').slice(0, 16);
}

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  // The App runs reflexion in a worker thread (src/simplify/simplify-off-thread.ts);
  // large analyses parse on worker threads (src/scan/parse-in-workers.ts) and resolve
  // imports on one while the main thread parses (src/scan/resolver-thread.ts).
  entryPoints: {
    aureus: 'src/cli/main.ts',
    'simplify-worker': 'src/simplify/simplify-worker.ts',
    'facts-worker': 'src/scan/facts-worker.ts',
    'resolve-worker': 'src/scan/resolve-worker.ts',
  },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // probot (the App, for `aureus serve` only) loads pino transports and views beside itself.
  external: ['typescript', 'web-tree-sitter', 'probot', 'oxc-parser', 'ts-morph'],
  // jsonc-parser's main file is a UMD wrapper whose require() calls a bundler cannot follow;
  // its ES module build is the same code.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  define: {
    AUREUS_POLICY_BUILD_ID: JSON.stringify(buildId(POLICY_INPUTS)),
    // Keys the kept base sides of checks (src/memory/base-side-cache.ts): any source decides them.
    AUREUS_BUILD_ID: JSON.stringify(buildId(['package.json', 'schemas', 'src'])),
  },
  logLevel: 'warning',
  // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as aureusCreateRequire } from 'node:module'; const require = aureusCreateRequire(import.meta.url);",
  },
});
if (result.errors.length > 0) process.exitCode = 1;
