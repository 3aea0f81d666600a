// Usage: node scripts/reference/madge-cycles.mjs <dir> [sources=src]
// The cycles madge finds in a code base, as strongly connected components of the graph it
// builds (madge's own `--circular` list is a selection of cycle paths, printed for reference).
// madge cannot tell a type-only import in its graph; it can leave out `import type` while parsing
// (detective-typescript's `skipTypeImports`), so it runs twice: `all` and `runtime`. It has no
// option for the imports TypeScript's emit elides (bindings used only as types) nor for those
// decorator metadata keeps: its `runtime` is not the emitted graph, and is shown, not compared.
// Each run is a process of its own, timed start to exit, as `madge --json --circular` would be.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTimed, toolVersion } from './run-timed.mjs';
import { cycleComponents, describeComponents } from './scc.mjs';

const MADGE = new URL('../../node_modules/madge/lib/api.js', import.meta.url).href;

/** What the child process runs: madge's API, printing its graph, cycles and skipped files. */
const WORKER = `
import madge from ${JSON.stringify(MADGE)};
const [dir, sources, skipTypeImports] = process.argv.slice(1);
const { existsSync } = await import('node:fs');
const tsConfig = existsSync(dir + '/tsconfig.json') ? dir + '/tsconfig.json' : undefined;
const detective = { skipTypeImports: skipTypeImports === 'true', skipAsyncImports: false };
const result = await madge(dir + '/' + sources, {
  baseDir: dir,
  fileExtensions: ['ts', 'tsx', 'mts', 'cts'],
  excludeRegExp: [/\\.d\\.(m|c)?ts$/],
  ...(tsConfig === undefined ? {} : { tsConfig }),
  detectiveOptions: { ts: detective, tsx: detective },
});
process.stdout.write(JSON.stringify({ graph: result.obj(), circular: result.circular(), skipped: result.warnings().skipped }));
`;

async function runMadge(dir, sources, skipTypeImports) {
  const run = await runTimed(
    process.execPath,
    ['--input-type=module', '-e', WORKER, dir, sources, String(skipTypeImports)],
    { cwd: dir },
  );
  if (run.exitCode !== 0) throw new Error(`madge failed: ${run.stderr}`);
  return { seconds: run.seconds, ...JSON.parse(run.stdout) };
}

/**
 * madge's answer on `dir`. `withoutTypeImports: false` leaves out the second run (`runtime`
 * then null): no comparison reads it, and it costs as much CPU as the first.
 */
export async function madgeCycles(dir, sources = 'src', { withoutTypeImports = true } = {}) {
  const all = await runMadge(dir, sources, false);
  const runtime = withoutTypeImports ? await runMadge(dir, sources, true) : null;
  const toMap = (graph) => new Map(Object.entries(graph));
  const sccs = {
    all: cycleComponents(toMap(all.graph)),
    runtime: runtime === null ? null : cycleComponents(toMap(runtime.graph)),
  };
  return {
    tool: 'madge',
    version: await toolVersion(new URL('../../node_modules/madge/package.json', import.meta.url)),
    seconds: all.seconds,
    secondsWithoutTypeImports: runtime?.seconds ?? null,
    files: Object.keys(all.graph).length,
    dependencies: Object.values(all.graph).reduce((total, targets) => total + targets.length, 0),
    circularPaths: { all: all.circular.length, runtime: runtime?.circular.length ?? null },
    skipped: all.skipped.length,
    summary: Object.fromEntries(
      Object.entries(sccs)
        .filter(([, list]) => list !== null)
        .map(([name, list]) => [name, describeComponents(list)]),
    ),
    sccs,
  };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, sources] = process.argv.slice(2);
  if (dir === undefined) {
    process.stderr.write('usage: node scripts/reference/madge-cycles.mjs <dir> [sources=src]\n');
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(await madgeCycles(resolve(dir), sources), null, 2)}\n`);
}
