import type { CommitDiff } from '../git/commit-history.js';
import { DAY_MS } from './learn-input.js';

/** What followed a commit within the rework window: its lines deleted again, and by what. */
export interface Rework {
  /** The commit's added lines that later commits deleted (rewritten or reverted). */
  readonly rewritten: number;
  /** Later commits that deleted its lines and call themselves a fix or a revert. */
  readonly fixups: readonly string[];
  /** Lines those fix-up commits added in the files they took the commit's lines from. */
  readonly fixupLines: number;
}

const FIXUP = /^(?:fix(?:up!|es|ed)?\b|squash!|revert|hotfix)/i;

/**
 * The rework `commits[index]` caused within `days`: each later commit's deleted lines are
 * matched, per file and by their text (trimmed, blank lines aside), against the lines the
 * commit added and no earlier follower deleted yet. No blame and no `git log -L`: one pass over
 * the diffs already read. A line the commit added that equals an older line elsewhere in the
 * file may be matched in its place, a small overcount the window keeps bounded.
 */
export function reworkOf(commits: readonly CommitDiff[], index: number, days: number): Rework {
  const commit = commits[index];
  if (commit === undefined) return { rewritten: 0, fixups: [], fixupLines: 0 };
  const left = new Map<string, Map<string, number>>();
  for (const file of commit.files) {
    const counts = new Map<string, number>();
    for (const line of file.added) {
      const key = line.trim();
      if (key !== '') counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    if (counts.size > 0) left.set(file.path, counts);
  }
  const end = commit.time + days * DAY_MS;
  let rewritten = 0;
  let fixupLines = 0;
  const fixups: string[] = [];
  for (const later of commits.slice(index + 1)) {
    if (later.time > end || later.time < commit.time) continue;
    let touched = 0;
    let added = 0;
    for (const file of later.files) {
      const counts = left.get(file.path);
      if (counts === undefined) continue;
      let here = 0;
      for (const line of file.deleted) {
        const key = line.trim();
        const count = counts.get(key) ?? 0;
        if (count === 0) continue;
        counts.set(key, count - 1);
        here += 1;
      }
      touched += here;
      if (here > 0) added += file.added.filter((line) => line.trim() !== '').length;
    }
    rewritten += touched;
    if (touched > 0 && FIXUP.test(later.subject)) {
      fixups.push(later.sha);
      fixupLines += added;
    }
  }
  return { rewritten, fixups, fixupLines };
}
