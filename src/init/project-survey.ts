import type { Language } from '../model/facts.js';

/**
 * Everything `aureus init` learns about a repository before it decides anything: gathered by
 * src/init/survey-project.ts (files, git, the analysis), judged here by pure functions, so
 * that every inference can be tested on a survey written by hand.
 */
export interface ProjectSurvey {
  /** The repository folder's name: the project's name when no manifest gives one. */
  readonly folderName: string;
  /** The clock, as data (ISO 8601): ages are measured from it, never from the machine's clock. */
  readonly now: string;
  /** Every tracked file outside `paths.ignore`, sorted by path. */
  readonly files: readonly SurveyFile[];
  /** The text of each tracked manifest (package.json, pyproject.toml, go.mod, …), by path. */
  readonly manifests: readonly ManifestText[];
  /** Runtime imports from one repository file to another (type-only imports left out). */
  readonly imports: readonly ImportEdge[];
  readonly history: GitHistory;
}

export interface SurveyFile {
  readonly path: string;
  /** The language AUREUS analyses the file as; null for every other file. */
  readonly language: Language | null;
  /** Lines of code (FileFacts `loc`) of an analysed file; null for every other file. */
  readonly codeLines: number | null;
}

export interface ManifestText {
  readonly path: string;
  readonly text: string;
}

export interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

export interface GitHistory {
  /** Commits reachable from HEAD (0 in a repository without commits). */
  readonly commits: number;
  /** Author date of the oldest root commit (ISO 8601), null without commits. */
  readonly firstCommitAt: string | null;
  /** Distinct human authors of the commits of the last TEAM_WINDOW_DAYS days (bots left out). */
  readonly recentAuthors: number;
  /** A shallow clone: commits and age are then lower bounds. */
  readonly shallow: boolean;
}

/**
 * The team is who wrote code lately: ninety days spans a release cycle or two, long enough that
 * holidays do not empty it and short enough that people who left are not counted.
 */
export const TEAM_WINDOW_DAYS = 90;
