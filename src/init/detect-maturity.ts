import type { Policy } from '../model/policy.js';
import type { CoreLayout, Inferred, Maturity } from './project-intelligence.js';
import { type GitHistory, TEAM_WINDOW_DAYS } from './project-survey.js';
import { count, plural } from './wording.js';

/**
 * A year of history means code written under assumptions nobody re-reads, and people who
 * depend on it: its findings are paid down over time, not before the next commit.
 */
export const LEGACY_MIN_AGE_DAYS = 365;
/** 500 commits is years of a small team's work even when the history was squashed or moved. */
export const LEGACY_MIN_COMMITS = 500;
/**
 * A core above the design's hard LOC limit cannot be brought under the design's budgets by
 * ordinary work, whatever its age: it is treated as legacy (a baseline, budgets above it).
 */
const legacyCoreLoc = (design: Policy['budgets']) => design.core_loc.hard;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * greenfield: young, short history, a core within the design's budgets: the design's budgets
 * apply as they are. growing: young but its core already exceeds a design budget (LOC target,
 * files or modules): budgets start above today's core. legacy: old, long history, or a core past
 * the design's hard limit: budgets above today's core and a baseline of today's findings.
 */
export function detectMaturity(
  history: GitHistory,
  now: string,
  core: CoreLayout,
  design: Policy['budgets'],
): Inferred<Maturity> {
  const ageDays =
    history.firstCommitAt === null
      ? 0
      : Math.floor((Date.parse(now) - Date.parse(history.firstCommitAt)) / DAY_MS);
  const age =
    history.firstCommitAt === null
      ? 'no commits yet'
      : `first commit ${history.firstCommitAt.slice(0, 10)} (${ageWords(ageDays)} ago)`;
  const shallow = history.shallow ? ', a shallow clone so history is a lower bound' : '';
  const facts = `${age}, ${plural(history.commits, 'commit')}${shallow}, core ${count(core.loc)} lines in ${plural(core.files, 'file')} and ${plural(core.modules.length, 'module')}`;
  const legacy = [
    ageDays >= LEGACY_MIN_AGE_DAYS ? `older than ${ageWords(LEGACY_MIN_AGE_DAYS)}` : '',
    history.commits >= LEGACY_MIN_COMMITS ? `${count(LEGACY_MIN_COMMITS)} commits or more` : '',
    core.loc > legacyCoreLoc(design)
      ? `core above the design's hard limit of ${count(legacyCoreLoc(design))} lines`
      : '',
  ].filter((reason) => reason !== '');
  if (legacy.length > 0) return { value: 'legacy', reason: `${facts}: ${legacy.join(', ')}` };
  const over = [
    core.loc > design.core_loc.target ? `${count(design.core_loc.target)} lines` : '',
    core.files > design.core_files ? `${count(design.core_files)} files` : '',
    core.modules.length > design.core_modules ? `${count(design.core_modules)} modules` : '',
  ].filter((reason) => reason !== '');
  if (over.length > 0) {
    return {
      value: 'growing',
      reason: `${facts}: young, but past the design's ${over.join(', ')}`,
    };
  }
  return { value: 'greenfield', reason: `${facts}: young and within the design's budgets` };
}

/** Distinct recent authors: the team that will live with the budgets. */
export function detectTeam(history: GitHistory): Inferred<number> {
  const window = `the last ${TEAM_WINDOW_DAYS} days`;
  const shallow = history.shallow ? ' (a shallow clone: there may be more)' : '';
  return {
    value: history.recentAuthors,
    reason:
      history.recentAuthors === 0
        ? `no commits in ${window}`
        : `${plural(history.recentAuthors, 'person', 'people')} committed in ${window}${shallow}`,
  };
}

function ageWords(days: number): string {
  if (days < 60) return plural(days, 'day');
  if (days < 730) return plural(Math.floor(days / 30), 'month');
  return `${(days / 365).toFixed(1)} years`;
}
