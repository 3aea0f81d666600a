import { compareStrings } from '../analysis/graph/module-graph.js';
import type { Change } from '../model/change.js';
import type { Finding } from '../model/finding.js';
import { fingerprintOf } from './fingerprint.js';

/**
 * The base's findings under the paths the head gives their files. A file the change renames,
 * edited or not, keeps its findings: a move alone never makes a finding new, and one the edit
 * made worse is told as worsened, as in a file that stayed put. Paths inside a symbol move too:
 * a cycle's files (sorted again, its location the first of them, as circular-dependency.ts
 * reports it) and an oversized adapter's path. A copy is not a move: the original keeps its
 * findings, and the copy's are new, since the copy adds code.
 */
export function followRenames(findings: readonly Finding[], change: Change): readonly Finding[] {
  const moved = new Map<string, string>();
  for (const file of change.files)
    if (file.status === 'renamed' && file.oldPath !== undefined) moved.set(file.oldPath, file.path);
  if (moved.size === 0) return findings;
  const rename = (path: string) => moved.get(path) ?? path;
  return findings.map((finding) => {
    const { location } = finding;
    let symbol = finding.symbol;
    let path = location === null ? null : rename(location.path);
    if (finding.ruleId === 'circular_dependency') {
      const files = symbol.split('\n').map(rename).sort(compareStrings);
      symbol = files.join('\n');
      path = files[0] ?? path;
    } else if (finding.ruleId === 'oversized_adapter') {
      symbol = rename(symbol);
    }
    if (symbol === finding.symbol && path === (location?.path ?? null)) return finding;
    return {
      ...finding,
      location: location === null || path === null ? null : { ...location, path },
      symbol,
      fingerprint: fingerprintOf(finding.ruleId, path ?? '', symbol),
    };
  });
}
