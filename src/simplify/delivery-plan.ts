import { diffLines, structuredPatch } from 'diff';
import type { SuggestionComment } from '../github/simplify-review.js';
import type { VerifiedPatch } from './verify-proposal.js';

/** A suggestion replaces at most this many lines: anything larger reads better as a commit. */
const MAX_SUGGESTED_LINES = 20;

export interface DeliveryPlan {
  /** Small patches inside one file, on lines the pull request added: a suggestion each. */
  readonly suggestions: ReadonlyArray<{
    readonly patch: VerifiedPatch;
    readonly comment: SuggestionComment;
  }>;
  /** Patches for the `aureus: simplify` commit. */
  readonly committed: readonly VerifiedPatch[];
  /** Patches neither suggested nor committed (no commit allowed here): shown as diffs. */
  readonly listed: readonly VerifiedPatch[];
}

export interface DeliveryAllowance {
  /** simplification.suggestions */
  readonly suggestions: boolean;
  /** simplification.auto_commit, on a branch of the same repository. */
  readonly commit: boolean;
}

/**
 * Splits the verified patches between suggestions, the commit and a plain list. The patches
 * come from compose-patches.ts, so no two edit the same file and a suggestion never overlaps
 * the commit. A suggestion must sit on lines the pull request added (`addedLines`, head line
 * numbers by path): those are the lines its author is asked about, and GitHub only takes
 * comments on lines its diff shows.
 */
export function planDelivery(
  patches: readonly VerifiedPatch[],
  addedLines: (path: string) => ReadonlySet<number>,
  allow: DeliveryAllowance,
): DeliveryPlan {
  const suggestions: Array<{ patch: VerifiedPatch; comment: SuggestionComment }> = [];
  const rest: VerifiedPatch[] = [];
  for (const patch of patches) {
    const comment = allow.suggestions ? suggestionOf(patch, addedLines) : undefined;
    if (comment === undefined) rest.push(patch);
    else suggestions.push({ patch, comment });
  }
  return allow.commit
    ? { suggestions, committed: rest, listed: [] }
    : { suggestions, committed: [], listed: rest };
}

/** Head line numbers of lines that `head` adds to `base` (all of them for a new file). */
export function addedLineNumbers(base: string, head: string): Set<number> {
  const added = new Set<number>();
  let line = 1;
  for (const part of diffLines(base, head)) {
    const count = part.count ?? 0;
    if (part.added) for (let index = 0; index < count; index++) added.add(line + index);
    if (!part.removed) line += count;
  }
  return added;
}

function suggestionOf(
  patch: VerifiedPatch,
  addedLines: (path: string) => ReadonlySet<number>,
): SuggestionComment | undefined {
  const [edit, ...others] = patch.proposal.edits;
  if (edit === undefined || others.length > 0 || edit.after === null) return undefined;
  const { hunks } = structuredPatch('a', 'b', edit.before, edit.after, '', '', { context: 0 });
  const [hunk, ...moreHunks] = hunks;
  if (hunk === undefined || moreHunks.length > 0) return undefined;
  // A pure insertion has no line to sit on; a missing final newline cannot be suggested.
  if (hunk.oldLines === 0 || hunk.oldLines > MAX_SUGGESTED_LINES) return undefined;
  if (hunk.lines.some((line) => line.startsWith('\\'))) return undefined;
  const added = addedLines(edit.path);
  const end = hunk.oldStart + hunk.oldLines - 1;
  for (let line = hunk.oldStart; line <= end; line++) if (!added.has(line)) return undefined;
  const replacement = hunk.lines
    .filter((line) => line.startsWith('+'))
    .map((line) => line.slice(1));
  return {
    path: edit.path,
    startLine: hunk.oldStart,
    line: end,
    body: suggestionBody(patch, replacement),
  };
}

function suggestionBody(patch: VerifiedPatch, replacement: readonly string[]): string {
  const text = replacement.join('\n');
  const fence = fenceFor(text);
  const block =
    replacement.length === 0
      ? `${fence}suggestion\n${fence}`
      : `${fence}suggestion\n${text}\n${fence}`;
  return `**AUREUS simplify** · \`${patch.proposal.pass}\` · ${patch.price.cost.total} points\n\n${patch.proposal.title}\n\n${block}`;
}

/** A code fence longer than any run of backticks in the text, so the text cannot close it. */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}
