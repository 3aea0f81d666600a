import { isUsedAsContract } from '../../critic/abstractions.js';
import type { RepositoryAnalysis } from '../../scan/analyze-repository.js';

/** Longer lists are cut to this many lines; the JSON output has them whole. */
const LISTED = 10;

/**
 * The text section of `aureus analyze` about classes: abstractions with fewer than two concrete
 * implementations, among those used as contracts as the critic's premature-abstraction rule
 * counts them (isUsedAsContract: an interface no class names is a data shape, and listing
 * those drowned the few that matter, 1,716 of zod's 1,719), the deepest `extends` chains, and
 * how many parents did not resolve.
 */
export function heritageLines(analysis: RepositoryAnalysis): string[] {
  const { implementations, inheritance, unresolvedHeritage } = analysis;
  const lines: string[] = [];
  const contracts = implementations.filter(isUsedAsContract);
  const shapes = implementations.length - contracts.length;
  const few = contracts.filter((entry) => entry.concrete.length < 2);
  const notCounted =
    shapes === 0
      ? ''
      : `; ${shapes} ${shapes === 1 ? 'interface or protocol that no class implements is a data shape' : 'interfaces and protocols that no class implements are data shapes'}, not counted (--format json lists ${shapes === 1 ? 'it' : 'them'})`;
  lines.push(
    `Abstractions with fewer than 2 concrete implementations: ${few.length} of ${contracts.length}${notCounted}.`,
  );
  for (const entry of few.slice(0, LISTED)) {
    const names = entry.concrete.map((cls) => `${cls.name} (${cls.file})`);
    lines.push(
      `  ${entry.name} (${entry.kind}, ${entry.file}): ${entry.concrete.length}${names.length > 0 ? `, ${names.join(', ')}` : ''}`,
    );
  }
  pushRest(lines, few.length);

  const deepest = [...inheritance]
    .filter((cls) => cls.depth > 0)
    .sort((a, b) => b.depth - a.depth)
    .slice(0, LISTED);
  lines.push(`Deepest inheritance (extends levels): ${deepest[0]?.depth ?? 0}.`);
  for (const cls of deepest) {
    const chain = cls.chain.map((link) =>
      link.kind === 'declaration'
        ? `${link.name} (${link.file})`
        : `${link.written} (${link.reason})`,
    );
    lines.push(`  ${cls.depth}  ${[`${cls.name} (${cls.file})`, ...chain].join(' → ')}`);
  }

  if (unresolvedHeritage.length > 0) {
    const byReason = new Map<string, number>();
    for (const { reason } of unresolvedHeritage)
      byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    const counts = [...byReason].map(([reason, count]) => `${reason} ${count}`).join(', ');
    lines.push(
      `Class parents outside the repository or not resolved: ${unresolvedHeritage.length} (${counts}).`,
    );
  }
  return lines;
}

function pushRest(lines: string[], total: number): void {
  if (total > LISTED) lines.push(`  … and ${total - LISTED} more (--format json lists them all).`);
}
