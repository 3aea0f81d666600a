import { basename } from 'node:path';
import { containedDisk } from '../git/contained-file.js';
import { historyStats } from '../git/history-stats.js';
import { listTrackedFiles, type TrackedFile } from '../git/index.js';
import type { Policy } from '../model/policy.js';
import { globMatcher } from '../policy/glob-matcher.js';
import { analyzeRepository, type RepositoryAnalysis } from '../scan/analyze-repository.js';
import { isManifest } from './manifests/read-project-manifests.js';
import { type ManifestText, type ProjectSurvey, TEAM_WINDOW_DAYS } from './project-survey.js';

/** Manifests deeper than `packages/scope/name/package.json` are fixtures or vendored code. */
const MAX_MANIFEST_DEPTH = 4;
/** A repository with more manifests than this is read by its first ones (sorted by path). */
const MAX_MANIFESTS = 500;
/** No manifest worth reading is larger; a bigger one is generated or data. */
const MAX_MANIFEST_BYTES = 512 * 1024;
const REGULAR_FILE = /^100(644|755)$/;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface SurveyOptions {
  /** The clock: ages and the team's window are measured from it. */
  readonly now: Date;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface SurveyedProject {
  readonly survey: ProjectSurvey;
  /** The whole-repository analysis the survey's lines and imports come from, for the critic. */
  readonly analysis: RepositoryAnalysis;
}

/**
 * Gathers the evidence `aureus init` judges: the tracked files with their languages and code
 * lines (from the whole-repository analysis, by `design`'s ignore globs), the manifests' texts,
 * the runtime imports between files and the git history's age, length and recent authors.
 */
export async function surveyProject(
  root: string,
  design: Policy,
  options: SurveyOptions,
): Promise<SurveyedProject> {
  const analysis = await analyzeRepository(root, design, {
    snapshot: { kind: 'worktree' },
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  const ignored = globMatcher(design.paths.ignore);
  const tracked = (await listTrackedFiles(root)).filter((file) => !ignored(file.path));
  const since = new Date(options.now.getTime() - TEAM_WINDOW_DAYS * DAY_MS);
  // git reads the history while the manifests are read here.
  const reading = historyStats(root, since);
  const manifests = readManifests(root, tracked);
  const history = await reading;
  const files = tracked.map(({ path }) => {
    const facts = analysis.facts.get(path);
    return { path, language: facts?.language ?? null, codeLines: facts?.loc ?? null };
  });
  const imports = analysis.graph.edges
    .filter((edge) => !edge.typeOnly)
    .map(({ from, to }) => ({ from, to }));
  return {
    survey: {
      folderName: basename(root),
      now: options.now.toISOString(),
      files,
      manifests,
      imports,
      history,
    },
    analysis,
  };
}

/**
 * The working tree's text of every tracked manifest, shallow enough to be a project's or a
 * workspace member's. Links and files that changed into something else (a FIFO, a folder) are
 * skipped, as is a folder that leads out of the repository (contained-file.ts): a manifest is
 * read for evidence, and a link could point anywhere on this machine.
 */
function readManifests(root: string, tracked: readonly TrackedFile[]): ManifestText[] {
  const candidates = tracked
    .filter((file) => REGULAR_FILE.test(file.mode) && isManifest(file.path))
    .filter((file) => file.path.split('/').length <= MAX_MANIFEST_DEPTH)
    .slice(0, MAX_MANIFESTS);
  const disk = containedDisk(root, MAX_MANIFEST_BYTES);
  return candidates.flatMap(({ path }) => {
    const read = disk.read(path);
    return read.ok ? [{ path, text: read.bytes.toString('utf8') }] : [];
  });
}
