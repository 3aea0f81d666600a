// Usage: node scripts/reference/compare-cycles.mjs
// Fetches the reference code bases (if needed) and runs dependency-cruiser and madge on each,
// printing one table row per code base: files, lines, each tool's components with every import
// and at run time, its own cycle-path count and its run time, and whether the two tools'
// components with every import agree (madge cannot read which imports the emit keeps). The full answers (every component) go to <referenceDir>/cycles.json: the
// expected output AUREUS's findCycles is compared with.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODEBASES, referenceDir, repoDir } from './codebases.mjs';
import { dependencyCruiserCycles } from './dependency-cruiser-cycles.mjs';
import { madgeCycles } from './madge-cycles.mjs';

const fetched = execFileSync(
  process.execPath,
  [fileURLToPath(new URL('./fetch-codebases.mjs', import.meta.url))],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
const sizes = new Map(
  fetched
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .map((row) => [row.codebase, row]),
);

const results = [];
for (const codebase of CODEBASES) {
  const name = `${codebase.name}@${codebase.version}`;
  const dir = repoDir(codebase);
  const cruiser = await dependencyCruiserCycles(dir, codebase.sources);
  const madge = await madgeCycles(dir, codebase.sources);
  results.push({ codebase: name, ...sizes.get(name), dependencyCruiser: cruiser, madge });
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const count = (summary) =>
    `${summary.components} (${summary.files} files, largest ${summary.largest})`;
  process.stdout.write(
    [
      `${name}: ${sizes.get(name)?.files} files, ${sizes.get(name)?.lines} lines`,
      `  dependency-cruiser ${cruiser.seconds.toFixed(2)} s (${cruiser.secondsAsEmitted.toFixed(2)} s as emitted): ${cruiser.dependencies} deps, ${cruiser.noCircularViolations} no-circular violations`,
      `    SCCs all ${count(cruiser.summary.all)}; runtime (as emitted) ${count(cruiser.summary.runtime)}`,
      `  madge ${madge.seconds.toFixed(2)} s (${madge.secondsWithoutTypeImports.toFixed(2)} s without type imports): ${madge.dependencies} deps, ${madge.circularPaths.all}/${madge.circularPaths.runtime} circular paths, ${madge.skipped} skipped`,
      `    SCCs all ${count(madge.summary.all)}; runtime ${count(madge.summary.runtime)}`,
      // madge drops `import type` only, not the imports the emit elides: no runtime comparison.
      `  tools agree: all ${same(cruiser.sccs.all, madge.sccs.all)}`,
      '',
    ].join('\n'),
  );
}
const output = join(referenceDir(), 'cycles.json');
writeFileSync(output, `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`full answers: ${output}\n`);
