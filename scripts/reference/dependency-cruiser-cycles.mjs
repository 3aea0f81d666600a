// Usage: node scripts/reference/dependency-cruiser-cycles.mjs <dir> [sources=src]
// The cycles dependency-cruiser 17 finds in a code base, as strongly connected components.
// dependency-cruiser's `no-circular` rule reports one cycle path per module on it, a number that
// depends on its search order; the components of the graph it reports are the comparable answer.
// So this runs it with `no-circular`, takes every dependency it resolved between the `.ts`
// sources, and computes the components of two runs:
//   all      `tsPreCompilationDeps: true`: every import written in the TypeScript source;
//   runtime  `tsPreCompilationDeps: false`, dependency-cruiser's default: the imports left in
//            what `ts.transpileModule` emits for each file under its tsconfig (no `import type`,
//            no import whose bindings are used only as types, but the imports decorator metadata
//            and the JSX factory keep): the question AUREUS asks with includeTypeOnly: false.
// Triple-slash references are left out everywhere: they are not imports.
// Prints JSON: repository-relative paths, sorted components, the run times.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DECLARATION, SOURCE } from './codebases.mjs';
import { runTimed, toolVersion } from './run-timed.mjs';
import { cycleComponents, describeComponents } from './scc.mjs';

const CRUISER = fileURLToPath(
  new URL('../../node_modules/dependency-cruiser/bin/dependency-cruise.mjs', import.meta.url),
);
export async function dependencyCruiserCycles(dir, sources = 'src') {
  const all = await cruise(dir, sources, true);
  const runtime = await cruise(dir, sources, false);
  const sccs = { all: cycleComponents(all.graph), runtime: cycleComponents(runtime.graph) };
  return {
    tool: 'dependency-cruiser',
    version: await toolVersion(
      new URL('../../node_modules/dependency-cruiser/package.json', import.meta.url),
    ),
    seconds: all.seconds,
    secondsAsEmitted: runtime.seconds,
    files: all.files,
    dependencies: all.edges,
    noCircularViolations: all.noCircular,
    summary: Object.fromEntries(
      Object.entries(sccs).map(([name, list]) => [name, describeComponents(list)]),
    ),
    sccs,
  };
}

/** One dependency-cruiser run: its graph between the sources, timed start to exit. */
async function cruise(dir, sources, tsPreCompilationDeps) {
  const work = mkdtempSync(join(tmpdir(), 'aureus-depcruise-'));
  try {
    const config = join(work, 'config.cjs');
    const output = join(work, 'result.json');
    writeFileSync(config, configText(dir, sources, tsPreCompilationDeps));
    const run = await runTimed(
      process.execPath,
      [
        CRUISER,
        sources,
        '--config',
        config,
        '--output-type',
        'json',
        '--output-to',
        output,
        '--progress',
        'none',
      ],
      { cwd: dir },
    );
    const result = JSON.parse(readFileSync(output, 'utf8'));
    const files = result.modules
      .map((module) => module.source)
      .filter(isSource)
      .sort();
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, []]));
    let edges = 0;
    for (const module of result.modules) {
      if (!known.has(module.source)) continue;
      for (const dependency of module.dependencies) {
        const types = dependency.dependencyTypes;
        if (!known.has(dependency.resolved) || types.includes('triple-slash-directive')) continue;
        edges += 1;
        graph.get(module.source).push(dependency.resolved);
      }
    }
    const noCircular = result.summary.violations.filter(
      (violation) => violation.rule.name === 'no-circular',
    ).length;
    return { seconds: run.seconds, files: files.length, edges, noCircular, graph };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function isSource(path) {
  return SOURCE.test(path) && !DECLARATION.test(path);
}

function configText(dir, sources, tsPreCompilationDeps) {
  const escaped = sources.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const options = {
    doNotFollow: { path: 'node_modules' },
    includeOnly: { path: `^${escaped}/` },
    exclude: { path: DECLARATION.source },
    tsPreCompilationDeps,
    ...(hasTsConfig(dir) ? { tsConfig: { fileName: 'tsconfig.json' } } : {}),
    // As AUREUS's own .dependency-cruiser.cjs: package `exports` honoured.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  };
  const forbidden = [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }];
  return `module.exports = ${JSON.stringify({ forbidden, options }, null, 2)};\n`;
}

function hasTsConfig(dir) {
  try {
    readFileSync(join(dir, 'tsconfig.json'));
    return true;
  } catch {
    return false;
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, sources] = process.argv.slice(2);
  if (dir === undefined) {
    process.stderr.write(
      'usage: node scripts/reference/dependency-cruiser-cycles.mjs <dir> [sources=src]\n',
    );
    process.exit(2);
  }
  const report = await dependencyCruiserCycles(resolve(dir), sources);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}
