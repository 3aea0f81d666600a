import { compareStrings } from '../analysis/graph/module-graph.js';
import type { Change } from '../model/change.js';
import type { Finding, RecordedFinding } from '../model/finding.js';
import { fingerprintOf } from './finding-of.js';

/** Old path → new path of every file a change renames. */
export type Renames = ReadonlyMap<string, string>;

/** The renames of a change. A copy is not a move: its original stays where it was. */
export function renamesOf(change: Change): Renames {
  const moved = new Map<string, string>();
  for (const file of change.files)
    if (file.status === 'renamed' && file.oldPath !== undefined) moved.set(file.oldPath, file.path);
  return moved;
}

/**
 * The base's findings under the paths the head gives their files. A file the change renames,
 * edited or not, keeps its findings: a move alone never makes a finding new, and one the edit
 * made worse is told as worsened, as in a file that stayed put. Paths inside a symbol move too:
 * a cycle's files (sorted again, its location the first of them, as circular-dependency.ts
 * reports it) and an oversized adapter's path. A copy is not a move: the original keeps its
 * findings, and the copy's are new, since the copy adds code.
 */
export function followRenames(findings: readonly Finding[], change: Change): readonly Finding[] {
  const renames = renamesOf(change);
  if (renames.size === 0) return findings;
  return findings.map((finding) => {
    const { location } = finding;
    const moved = movedIdentity(finding.ruleId, location?.path ?? null, finding.symbol, renames);
    if (moved === undefined) return finding;
    return {
      ...finding,
      location: location === null || moved.path === null ? null : { ...location, path: moved.path },
      symbol: moved.symbol,
      fingerprint: moved.fingerprint,
    };
  });
}

/**
 * Findings a baseline records, under the paths files have after `renames`: the same moves as
 * followRenames, so a baseline taken before a file moved still knows its findings.
 */
export function followRecordedRenames(
  recorded: readonly RecordedFinding[],
  renames: Renames,
): readonly RecordedFinding[] {
  if (renames.size === 0) return recorded;
  return recorded.map((entry) => {
    const moved = movedIdentity(entry.ruleId, entry.path, entry.symbol, renames);
    return moved === undefined ? entry : { ...entry, ...moved };
  });
}

interface Identity {
  readonly path: string | null;
  readonly symbol: string;
  readonly fingerprint: string;
}

/** A finding's path, symbol and fingerprint after the moves; undefined when none touches it. */
function movedIdentity(
  ruleId: string,
  path: string | null,
  symbol: string,
  renames: Renames,
): Identity | undefined {
  const rename = (from: string) => renames.get(from) ?? from;
  let movedSymbol = symbol;
  let movedPath = path === null ? null : rename(path);
  if (ruleId === 'circular_dependency') {
    const files = symbol.split('\n').map(rename).sort(compareStrings);
    movedSymbol = files.join('\n');
    movedPath = files[0] ?? movedPath;
  } else if (ruleId === 'oversized_adapter') {
    movedSymbol = rename(symbol);
  }
  if (movedSymbol === symbol && movedPath === path) return undefined;
  return {
    path: movedPath,
    symbol: movedSymbol,
    fingerprint: fingerprintOf(ruleId, movedPath ?? '', movedSymbol),
  };
}
