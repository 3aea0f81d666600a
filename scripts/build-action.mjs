// Usage: node scripts/build-action.mjs [--check]
// Bundles the GitHub Action (src/action/main.ts and everything it uses) into dist/ with
// esbuild: the entries action.yml and builder/action.yml run (index.mjs; builder.mjs, for the
// builder step's script steps, the agent's own process included), each a small ES module that
// sets the process up and then requires its part (run-action.cjs, run-builder-stage.cjs);
// ts-morph in a file of its own (ts-morph.cjs), read only by a run that simplifies; plus
// TypeScript and the WebAssembly files web-tree-sitter and the grammars load at run time.
// The parts are CommonJS so that they require ts-morph (and TypeScript) only on first use;
// V8's compiled code for those is kept between runs (src/memory/compiled-code-cache.ts). The
// Action runs from this committed bundle with no node_modules (a
// workspace's own node_modules can never change what runs: THREATS row 16). esbuild was chosen
// over ncc for its speed and byte-for-byte reproducible output, which `--check` relies on: it
// rebuilds into a temporary folder and fails when the committed dist/ differs.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * Shipped beside the bundle: typescript, and the WebAssembly files (web-tree-sitter finds its
 * runtime by `new URL(…, import.meta.url)`).
 */
const COPIED_FILES = [
  ['typescript/lib/typescript.js', 'typescript.cjs'],
  ['web-tree-sitter/web-tree-sitter.wasm', 'web-tree-sitter.wasm'],
  ['tree-sitter-python/tree-sitter-python.wasm', 'grammars/tree-sitter-python.wasm'],
  ['tree-sitter-go/tree-sitter-go.wasm', 'grammars/tree-sitter-go.wasm'],
  ['tree-sitter-java/tree-sitter-java.wasm', 'grammars/tree-sitter-java.wasm'],
];

/** Modules whose way of finding files only works from node_modules, swapped for the bundle. */
const REPLACEMENTS = {
  // The entries load the rest as CommonJS with require() (src/action/action-parts.ts says why).
  'src/action/action-parts.ts': [
    "import { createRequire } from 'node:module';",
    'const load = createRequire(import.meta.url);',
    "export const loadRunAction = async () => load('./run-action.cjs');",
    "export const loadRunBuilderStage = async () => load('./run-builder-stage.cjs');",
    '',
  ].join('\n'),
  // typescript ships as one self-contained CommonJS file; it is copied beside the bundle as it
  // is, so that rebuilding the bundle never rewrites 9 MB that did not change.
  'src/analysis/typescript-runtime.ts': [
    "import { createRequire } from 'node:module';",
    "export const typescript = createRequire(import.meta.url)('./typescript.cjs');",
    '',
  ].join('\n'),
  // oxc-parser is native code, one binary per platform: the bundle ships none, and reads TS/JS
  // with TypeScript's parser, its tree converted to the shape oxc gives.
  'src/scan/load-oxc-facts.ts': 'export async function loadOxcFacts() { return undefined; }\n',
  'src/scan/grammar-file.ts': [
    "import { fileURLToPath } from 'node:url';",
    'export function grammarFile(packagePath) {',
    "  const name = packagePath.slice(packagePath.lastIndexOf('/') + 1);",
    "  return fileURLToPath(new URL('./grammars/' + name, import.meta.url));",
    '}',
    '',
  ].join('\n'),
};

const replaceForBundle = {
  name: 'replace-for-bundle',
  setup(builder) {
    // ts-morph (reflexion) carries its own copy of typescript, the same version as ours: it
    // takes the one copied beside the bundle instead of adding 9 MB more.
    // ts-morph (3.4 MB with @ts-morph/common) is needed only by a run that simplifies: the parts
    // require it from a file of its own, which no other run reads or compiles.
    builder.onResolve({ filter: /^ts-morph$/ }, (args) =>
      args.importer.endsWith('.ts') ? { path: './ts-morph.cjs', external: true } : undefined,
    );
    builder.onResolve({ filter: /^\.\/typescript$/ }, (args) =>
      args.importer.replaceAll('\\', '/').includes('/@ts-morph/common/')
        ? { path: './typescript.cjs', external: true }
        : undefined,
    );
    // typescript-estree (TypeScript's tree in the TS-ESTree shape) and ts-api-utils require
    // typescript by name: the same copy.
    builder.onResolve({ filter: /^typescript$/ }, () => ({
      path: './typescript.cjs',
      external: true,
    }));
    builder.onLoad({ filter: /\.ts$/ }, (args) => {
      const relativePath = args.path.slice(root.length + 1).replaceAll('\\', '/');
      const contents = REPLACEMENTS[relativePath];
      return contents === undefined ? undefined : { contents, loader: 'js' };
    });
  },
};

/** What both builds share. */
const COMMON = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Readable and line-oriented: a change to one source file changes a few lines of the
  // committed bundle, not all of it, and reviewers can read what the Action runs.
  minify: false,
  legalComments: 'eof',
  // Module paths are written into the bundle; resolving through symlinks would write the
  // real location of a linked node_modules/ and make the bundle depend on the checkout.
  preserveSymlinks: true,
  logLevel: 'warning',
  define: { AUREUS_BUNDLED_VERSION: JSON.stringify(version) },
  // jsonc-parser's main file is a UMD wrapper whose require() calls a bundler cannot follow;
  // its ES module build is the same code.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  plugins: [replaceForBundle],
};

async function bundle(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(join(outdir, 'grammars'), { recursive: true });
  // The entries action.yml and builder/action.yml run: small ES modules that set the process
  // up (V8's flags, the compiled-code cache) and then require their part.
  const entries = await build({
    ...COMMON,
    entryPoints: [
      { in: 'src/action/main.ts', out: 'index' },
      { in: 'src/action/builder-main.ts', out: 'builder' },
    ],
    outdir,
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    // CommonJS packages inside an ES module bundle still call require() for Node's built-ins
    // and may read __filename/__dirname.
    banner: {
      js: [
        "import { createRequire as aureusCreateRequire } from 'node:module';",
        "import { dirname as aureusDirname } from 'node:path';",
        "import { fileURLToPath as aureusFileURLToPath } from 'node:url';",
        'const require = aureusCreateRequire(import.meta.url);',
        'const __filename = aureusFileURLToPath(import.meta.url);',
        'const __dirname = aureusDirname(__filename);',
      ].join(' '),
    },
  });
  // The parts, one CommonJS module each, which require ts-morph.cjs and typescript.cjs on first
  // use (an ES module bundle imports its externals at start). What reads import.meta.url
  // (web-tree-sitter, the replacements above) reads the part's own URL.
  const parts = await build({
    ...COMMON,
    entryPoints: [
      { in: 'src/action/run-action.ts', out: 'run-action' },
      { in: 'src/action/run-builder-stage.ts', out: 'run-builder-stage' },
    ],
    outdir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    banner: {
      js: "const aureusModuleUrl = require('node:url').pathToFileURL(__filename).href;",
    },
    define: { ...COMMON.define, 'import.meta.url': 'aureusModuleUrl' },
  });
  const tsMorph = await build({
    ...COMMON,
    entryPoints: [{ in: 'node_modules/ts-morph/dist/ts-morph.js', out: 'ts-morph' }],
    outdir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
  });
  if ([entries, parts, tsMorph].some((result) => result.errors.length > 0))
    throw new Error('esbuild failed');
  for (const [source, target] of COPIED_FILES)
    copyFileSync(require.resolve(source), join(outdir, target));
}

function filesUnder(folder, prefix = '') {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(folder, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

const committed = join(root, 'dist');
if (process.argv.includes('--check')) {
  const fresh = mkdtempSync(join(tmpdir(), 'aureus-action-bundle-'));
  try {
    await bundle(fresh);
    const wanted = filesUnder(fresh).sort();
    const present = filesUnder(committed).filter(
      (file) => !file.includes('/') || file.startsWith('grammars/'),
    );
    const differing = wanted.filter((file) => {
      try {
        return !readFileSync(join(fresh, file)).equals(readFileSync(join(committed, file)));
      } catch {
        return true;
      }
    });
    const extra = present.filter(
      (file) => !wanted.includes(file) && /\.(mjs|cjs|wasm)$/.test(file),
    );
    if (differing.length > 0 || extra.length > 0) {
      console.error(
        `dist/ is not the bundle of the current sources (${[...differing, ...extra].join(', ')}). Run npm run build:action and commit dist/.`,
      );
      process.exitCode = 1;
    } else
      console.log(
        `dist/: the committed Action bundle matches the sources (${wanted.length} files).`,
      );
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
} else {
  await bundle(join(root, '.action-build'));
  for (const file of filesUnder(join(root, '.action-build'))) {
    mkdirSync(dirname(join(committed, file)), { recursive: true });
    copyFileSync(join(root, '.action-build', file), join(committed, file));
  }
  rmSync(join(root, '.action-build'), { recursive: true, force: true });
  console.log(`dist/: Action bundle written (${basename(committed)}/index.mjs).`);
}
