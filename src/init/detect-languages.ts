import type { Language } from '../model/facts.js';
import { CONFIG_FILE } from './detect-core.js';
import type { Inferred, LanguageShare } from './project-intelligence.js';
import type { SurveyFile } from './project-survey.js';
import { count, listed, percent, plural } from './wording.js';

/** TSX is TypeScript to a reader of the stack; the analysis keeps them apart for its grammars. */
const STACK_NAME: Readonly<Record<Language, string>> = {
  typescript: 'typescript',
  tsx: 'typescript',
  javascript: 'javascript',
  python: 'python',
  go: 'go',
  java: 'java',
};

/** Languages AUREUS does not analyse, by extension: listed in the stack by their file count. */
const OTHER_LANGUAGES: Readonly<Record<string, string>> = {
  '.rs': 'rust',
  '.rb': 'ruby',
  '.kt': 'kotlin',
  '.kts': 'kotlin',
  '.scala': 'scala',
  '.swift': 'swift',
  '.cs': 'csharp',
  '.php': 'php',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.hpp': 'cpp',
  '.vue': 'vue',
  '.svelte': 'svelte',
  '.dart': 'dart',
  '.ex': 'elixir',
  '.exs': 'elixir',
};

/**
 * A language under 1 % of the lines is a stray build script or config file, not part of the
 * stack: a TypeScript project with one `eslint.config.js` is not a JavaScript project.
 */
const MIN_SHARE = 0.01;
/** Files of a language AUREUS does not analyse before it counts as part of the stack. */
const MIN_OTHER_FILES = 3;

/**
 * The languages by code lines, largest first, then the languages AUREUS does not analyse. The
 * root's tool configuration files are left out: an `eslint.config.js` is not JavaScript code.
 */
export function detectLanguages(files: readonly SurveyFile[]): Inferred<readonly LanguageShare[]> {
  const analysed = new Map<string, { lines: number; files: number }>();
  const others = new Map<string, number>();
  for (const file of files) {
    if (!file.path.includes('/') && CONFIG_FILE.test(file.path)) continue;
    if (file.language !== null) {
      const name = STACK_NAME[file.language];
      const entry = analysed.get(name) ?? { lines: 0, files: 0 };
      analysed.set(name, { lines: entry.lines + (file.codeLines ?? 0), files: entry.files + 1 });
      continue;
    }
    const other = OTHER_LANGUAGES[extensionOf(file.path)];
    if (other !== undefined) others.set(other, (others.get(other) ?? 0) + 1);
  }
  const total = [...analysed.values()].reduce((sum, entry) => sum + entry.lines, 0);
  const shares: LanguageShare[] = [...analysed]
    .filter(([, entry]) => total === 0 || entry.lines / total >= MIN_SHARE)
    .sort(([a, x], [b, y]) => y.lines - x.lines || (a < b ? -1 : 1))
    .map(([language, entry]) => ({ language, lines: entry.lines, files: entry.files }));
  const unanalysed: LanguageShare[] = [...others]
    .filter(([, files]) => files >= MIN_OTHER_FILES)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([language, files]) => ({ language, lines: null, files }));
  const value = [...shares, ...unanalysed];
  if (value.length === 0) return { value, reason: 'no source files in a language AUREUS knows' };
  const parts = value.map((share) =>
    share.lines === null
      ? `${share.language} ${plural(share.files, 'file')} (not analysed)`
      : `${share.language} ${count(share.lines)} (${percent(total === 0 ? 0 : share.lines / total)})`,
  );
  return { value, reason: `by code lines: ${listed(parts, 5)}` };
}

function extensionOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot === -1 || dot < path.lastIndexOf('/') ? '' : path.slice(dot).toLowerCase();
}
