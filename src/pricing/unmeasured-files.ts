import { detectLanguage, hasNoExtension } from '../analysis/detect-language.js';
import type { Language } from '../model/facts.js';
import { isManifest } from './dependencies/price-dependencies.js';
import { lockfileReaderOf } from './lockfiles.js';
import type { PathRules } from './path-rules.js';
import type { PricedFile } from './priced-files.js';

const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  typescript: 'TypeScript',
  tsx: 'TypeScript (TSX)',
  javascript: 'JavaScript',
  python: 'Python',
  go: 'Go',
  java: 'Java',
};

/**
 * The changed files whose contents decide the verdict but were not read, one sentence each
 * (PricedChange.unmeasured): a head over its read limit (`too-large`) that is
 * - source code AUREUS analyses: its lines, abstractions, sensitive calls and findings are
 *   unknown. Not under `paths.generated`: the critic judges no generated code, and its lines
 *   are weighted down anyway, so there its size is measure enough;
 * - a manifest AUREUS reads (the dependencies it adds are unknown) or a lockfile it reads (the
 *   packages it installs are unknown), wherever it is.
 * A Git LFS pointer (FileVersion.lfsPointer) is judged the same way, by the size it records.
 * Anything else over the limit (an image, a data file) is priced by its size and complete;
 * files under `paths.ignore` are not priced at all (pricedFiles leaves them out). Only the
 * head counts: a base over the limit is priced as absent (no line credited, every dependency,
 * package and finding new), which can only cost more than the truth.
 */
export function unmeasuredFiles(files: readonly PricedFile[], rules: PathRules): string[] {
  return files.flatMap(({ path, head }) => {
    if (head?.version.kind !== 'too-large') return [];
    const pointer = head.version.lfsPointer === true ? lfsPointerNote(path) : undefined;
    if (lockfileReaderOf(path) !== undefined) return [pointer ?? unmeasuredLockfileNote(path)];
    if (isManifest(path)) return [pointer ?? unmeasuredManifestNote(path)];
    const language = detectLanguage(path);
    if (rules.isGenerated(path) || (language === undefined && !hasNoExtension(path))) return [];
    return [pointer ?? unmeasuredSourceNote(path, language)];
  });
}

/**
 * Source files a whole-repository analysis left out because they are over the read limit
 * (`skipped` as `too-large`), under the same rule: not generated, not ignored (the analysis
 * never lists an ignored file).
 */
export function unmeasuredSources(
  skipped: ReadonlyArray<{ readonly path: string; readonly reason: string }>,
  rules: PathRules,
): string[] {
  return skipped.flatMap(({ path, reason }) => {
    const language = detectLanguage(path);
    if (reason !== 'too-large' || language === undefined || rules.isGenerated(path)) return [];
    return [unmeasuredSourceNote(path, language)];
  });
}

function unmeasuredSourceNote(path: string, language: Language | undefined): string {
  if (language === undefined)
    return `${path}: a file without an extension over the read limit, so whether it is a script (its \`#!\` line) and the code it runs are unknown. To resolve, split it or give it its language's extension; if it is data, add it to paths.ignore in the base policy.`;
  return `${path}: ${LANGUAGE_NAMES[language]} over the read limit, so its lines, abstractions, sensitive calls and findings are unknown. To resolve, split it into smaller files; if it is generated, add it to paths.generated (priced by its size, at pricing.generated_code_weight) or paths.ignore in the base policy.`;
}

function lfsPointerNote(path: string): string {
  return `${path}: a Git LFS pointer, so its contents, kept in LFS storage that AUREUS does not read, are unknown. To resolve, commit the file to git itself (\`git lfs untrack\` its pattern, then \`git add --renormalize\`); if it is generated, add it to paths.generated or paths.ignore in the base policy.`;
}

function unmeasuredManifestNote(path: string): string {
  return `${path}: a dependency manifest over the read limit, so the dependencies it adds are unknown. To resolve, shrink it, or add it to paths.ignore in the base policy if AUREUS should not price it.`;
}

function unmeasuredLockfileNote(path: string): string {
  return `${path}: a lockfile over the read limit, so the packages it installs are unknown. To resolve, split the workspace so that each lockfile stays under the limit, or add it to paths.ignore in the base policy (each new dependency then counts as 1 package).`;
}
