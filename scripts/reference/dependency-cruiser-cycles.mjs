// Usage: node scripts/reference/dependency-cruiser-cycles.mjs <dir> [sources=src]
// The cycles dependency-cruiser 17 finds in a code base, as strongly connected components.
// dependency-cruiser's `no-circular` rule reports one cycle path per module on it, a number that
// depends on its search order; the components of the graph it reports are the comparable answer.
// So this runs it with `no-circular`, takes every dependency it resolved between the `.ts`
// sources, and computes the components three ways:
//   all      every dependency;
//   runtime  without `import type`/`export type`/`import("…").T` (dependencyTypes `type-only`,
//            `type-import`): the question AUREUS asks with includeTypeOnly: false;
//   emitted  also without `pre-compilation-only` (imports tsc elides because only types are used).
// Triple-slash references are left out everywhere: they are not imports.
// Prints JSON: repository-relative paths, sorted components, the run time.
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
const ERASED_ALWAYS = ['type-only', 'type-import'];

export async function dependencyCruiserCycles(dir, sources = 'src') {
  const work = mkdtempSync(join(tmpdir(), 'aureus-depcruise-'));
  try {
    const config = join(work, 'config.cjs');
    const output = join(work, 'result.json');
    writeFileSync(config, configText(dir, sources));
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
    const graphs = { all: new Map(), runtime: new Map(), emitted: new Map() };
    for (const file of files) for (const graph of Object.values(graphs)) graph.set(file, []);
    let edges = 0;
    for (const module of result.modules) {
      if (!known.has(module.source)) continue;
      for (const dependency of module.dependencies) {
        const types = dependency.dependencyTypes;
        if (!known.has(dependency.resolved) || types.includes('triple-slash-directive')) continue;
        edges += 1;
        graphs.all.get(module.source).push(dependency.resolved);
        if (types.some((type) => ERASED_ALWAYS.includes(type))) continue;
        graphs.runtime.get(module.source).push(dependency.resolved);
        if (!types.includes('pre-compilation-only'))
          graphs.emitted.get(module.source).push(dependency.resolved);
      }
    }
    const sccs = Object.fromEntries(
      Object.entries(graphs).map(([name, graph]) => [name, cycleComponents(graph)]),
    );
    return {
      tool: 'dependency-cruiser',
      version: await toolVersion(
        new URL('../../node_modules/dependency-cruiser/package.json', import.meta.url),
      ),
      seconds: run.seconds,
      files: files.length,
      dependencies: edges,
      noCircularViolations: result.summary.violations.filter(
        (violation) => violation.rule.name === 'no-circular',
      ).length,
      summary: Object.fromEntries(
        Object.entries(sccs).map(([name, list]) => [name, describeComponents(list)]),
      ),
      sccs,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function isSource(path) {
  return SOURCE.test(path) && !DECLARATION.test(path);
}

function configText(dir, sources) {
  const escaped = sources.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const options = {
    doNotFollow: { path: 'node_modules' },
    includeOnly: { path: `^${escaped}/` },
    exclude: { path: DECLARATION.source },
    tsPreCompilationDeps: true,
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
