import { detectLanguage } from '../../src/analysis/detect-language.js';
import type { ProjectSurvey, SurveyFile } from '../../src/init/project-survey.js';

/** The clock every hand-written survey shares. */
export const NOW = '2025-06-01T00:00:00.000Z';

/** A tracked file; source files get their language from the path and `lines` code lines. */
export function file(path: string, lines = 10): SurveyFile {
  const language = detectLanguage(path) ?? null;
  return { path, language, codeLines: language === null ? null : lines };
}

/** A package.json manifest from an object. */
export function packageJson(path: string, manifest: object): { path: string; text: string } {
  return { path, text: JSON.stringify(manifest) };
}

/**
 * A survey of a young, small, single-author project with the given parts: tests change only
 * what they are about. Manifests' paths are added to the files, as git would track them.
 */
export function survey(parts: Partial<ProjectSurvey> = {}): ProjectSurvey {
  const manifests = parts.manifests ?? [];
  const files = [...(parts.files ?? []), ...manifests.map(({ path }) => file(path))];
  return {
    folderName: 'fixture',
    now: NOW,
    imports: [],
    history: {
      commits: 12,
      firstCommitAt: '2025-05-01T00:00:00.000Z',
      recentAuthors: 1,
      shallow: false,
    },
    ...parts,
    manifests,
    files: files.sort((a, b) => (a.path < b.path ? -1 : 1)),
  };
}
