import { type CacheFolder, localCacheFolder } from '../../memory/cache-dir.js';
import { loadPolicy } from '../../memory/policy-file.js';
import { AureusError, ExitCode } from '../../model/errors.js';
import { analyzeRepository, type RepositoryAnalysis } from '../../scan/analyze-repository.js';
import type { ParserChoice } from '../../scan/fact-parsers.js';
import { createProgressBar } from '../progress-bar.js';
import type { CommandContext } from './command-context.js';
import { heritageLines } from './heritage-text.js';

const PARSERS: readonly ParserChoice[] = ['auto', 'oxc', 'typescript'];

/**
 * `aureus analyze`: the whole repository's facts, import graph, cycles, modules, abstractions
 * with their implementations, and inheritance depth. Information, not a verdict: it exits 0
 * whatever it finds (the gate comes with `aureus check`).
 */
export async function analyzeCommand(context: CommandContext): Promise<number> {
  const { io, root, options, format } = context;
  const parser = PARSERS.find((choice) => choice === (options.parser ?? 'auto'));
  if (parser === undefined) {
    throw new AureusError(
      `unknown parser "${options.parser}": --parser picks what reads TypeScript and JavaScript (Python, Go and Java are always read by tree-sitter).`,
      `use --parser ${PARSERS.join(', --parser ')}.`,
    );
  }
  const { policy } = await loadPolicy({ root, file: options.policy, cwd: io.cwd });
  const bar = createProgressBar({ write: io.styled.stderr, ...io.progress });
  const analysis = await analyzeRepository(root, policy, {
    ref: options.ref,
    parser,
    onProgress: (done, total) => bar.update(done, total, 'files'),
  }).finally(() => bar.finish());
  io.stdout(
    format === 'json'
      ? `${JSON.stringify(asJson(analysis, options.facts === true), null, 2)}\n`
      : asText(analysis, offReason(localCacheFolder(root))),
  );
  return ExitCode.pass;
}

function asText(analysis: RepositoryAnalysis, cacheOff: string | undefined): string {
  const { stats, cycles, modules, skipped } = analysis;
  const languages = Object.entries(stats.byLanguage).map(
    ([language, count]) => `${language} ${count}`,
  );
  const lines = [
    `${stats.sourceFiles} source files of ${stats.trackedFiles} tracked (${languages.join(', ') || 'none'}): ${stats.parsed} parsed${stats.parseThreads > 1 ? ` on ${stats.parseThreads} threads` : ''}, ${stats.cached} from cache.`,
    `Modules under paths.core: ${modules.modules.length}${modules.modules.length > 0 ? ` (${modules.modules.join(', ')})` : ''}.`,
    `Import cycles (${analysis.countsTypeOnlyImports ? 'type-only imports counted' : 'runtime imports; type-only imports not counted'}): ${cycles.length}.`,
  ];
  cycles.forEach((cycle, index) => {
    lines.push(`  ${index + 1}. ${cycle.length} files:`);
    for (const path of cycle) lines.push(`     ${path}`);
  });
  lines.push(...heritageLines(analysis));
  const withErrors = [...analysis.facts].filter(([, facts]) => facts.diagnostics.length > 0);
  if (withErrors.length > 0)
    lines.push(`Files with parse errors (facts partial): ${withErrors.length}.`);
  for (const [path, { diagnostics }] of withErrors.slice(0, 20)) {
    const [first] = diagnostics;
    if (first !== undefined)
      lines.push(`  ${path}:${first.line}:${first.column}: ${first.message}`);
  }
  if (cacheOff !== undefined) lines.push(`The cache was not used: ${cacheOff}.`);
  if (skipped.length > 0)
    lines.push(
      `Not analysed: ${skipped.map((file) => `${file.path} (${file.reason})`).join(', ')}.`,
    );
  return `${lines.join('\n')}\n`;
}

function asJson(analysis: RepositoryAnalysis, withFacts: boolean): object {
  return {
    stats: analysis.stats,
    countsTypeOnlyImports: analysis.countsTypeOnlyImports,
    cycles: analysis.cycles,
    // File-level edges, so the graph can be compared with other tools' (scripts/reference/).
    edges: analysis.graph.edges.map(({ from, to, typeOnly }) => ({ from, to, typeOnly })),
    modules: analysis.modules.modules,
    moduleEdges: analysis.moduleEdges,
    implementations: analysis.implementations,
    inheritance: analysis.inheritance,
    unresolvedHeritage: analysis.unresolvedHeritage,
    skipped: analysis.skipped,
    usedCache: analysis.usedCache,
    diagnostics: Object.fromEntries(
      [...analysis.facts]
        .filter(([, facts]) => facts.diagnostics.length > 0)
        .map(([path, facts]) => [path, facts.diagnostics]),
    ),
    ...(withFacts ? { facts: Object.fromEntries(analysis.facts) } : {}),
  };
}

function offReason(folder: CacheFolder): string | undefined {
  return 'off' in folder ? folder.off : undefined;
}
