// Usage: node bench/parse-floor.mjs <repo> [sources=src] [oxc|typescript]
// The parse-only floor of a whole-repository analysis, as one process: start Node, load a parser
// (oxc's native parser by default, the fastest available for TypeScript and JavaScript; or
// TypeScript's own, `ts.createSourceFile`; every reference code base is TypeScript only), read
// every analysed file and parse it. Nothing else: no git, no walk of the tree, no facts, no
// resolution, no cache, no output beyond one line.
// The file list is the reference tools' (scripts/reference/codebases.mjs `sourceFiles`), which
// check-exactness.mjs verifies is exactly the list AUREUS selects with the reference policies,
// less the files AUREUS does not read either (over its 1 MiB blob limit: effect vendors two
// minified bundles as string literals), so that the floor never does more work than AUREUS.
//
// `typescript` is loaded with require, not `import`: importing this 9 MB CommonJS module from ESM
// makes Node scan it for export names first (cjs-module-lexer), ~340 ms more on this machine
// (0.61 s against 0.27 s to load it). The floor is the fastest way, so it takes the fast one.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { sourceFiles } from '../scripts/reference/codebases.mjs';
import { withinReadLimit } from './read-limit.mjs';

const [dir, sources = 'src', parserName = 'oxc'] = process.argv.slice(2);
if (dir === undefined || !['oxc', 'typescript'].includes(parserName)) {
  process.stderr.write('usage: node bench/parse-floor.mjs <repo> [sources=src] [oxc|typescript]\n');
  process.exit(2);
}

/** Parses one file and returns its number of top-level statements. */
async function loadParser(name) {
  if (name === 'oxc') {
    // Raw transfer where this Node has it (≥ 22), as AUREUS does: oxc's fastest way.
    const { parseSync, rawTransferSupported } = await import('oxc-parser');
    const options = { experimentalRawTransfer: rawTransferSupported() };
    return (file, text) => parseSync(file, text, options).program.body.length;
  }
  const ts = createRequire(import.meta.url)('typescript');
  /** The script kind by extension, so that `.tsx` is parsed with JSX and `.mts`/`.cts` as TS. */
  const scriptKind = (path) => {
    if (path.endsWith('.tsx')) return ts.ScriptKind.TSX;
    if (/\.(?:m|c)?js$/.test(path)) return ts.ScriptKind.JS;
    if (path.endsWith('.jsx')) return ts.ScriptKind.JSX;
    return ts.ScriptKind.TS;
  };
  // setParentNodes false: the cheapest complete parse TypeScript offers.
  return (file, text) =>
    ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, scriptKind(file)).statements
      .length;
}

const parse = await loadParser(parserName);
const repo = resolve(dir);
let bytes = 0;
let statements = 0;
const listed = sourceFiles(repo, sources);
const files = listed.filter((file) => withinReadLimit(repo, file));
for (const file of files) {
  const text = readFileSync(join(repo, file), 'utf8');
  bytes += text.length;
  // Used, so that the work cannot be judged dead; also a sanity check on the output.
  statements += parse(file, text);
}
process.stdout.write(
  `${JSON.stringify({ files: files.length, overLimit: listed.length - files.length, characters: bytes, statements })}\n`,
);
