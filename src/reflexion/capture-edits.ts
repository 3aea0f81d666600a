import type { SourceFile } from 'ts-morph';
import type { FileEdit, PassContext } from './proposal.js';

/**
 * Runs `change` on the project, returns what it did to each file as text, and puts the project
 * back as it was: passes use ts-morph's refactorings (which rename references, remove imports,
 * keep formatting) and this turns them into edits a verifier can check and a person can read.
 * A file left with only whitespace is deleted. Edits are sorted by path.
 */
export function captureEdits(context: PassContext, change: () => void): FileEdit[] {
  const before = new Map<SourceFile, string>();
  for (const file of context.project.getSourceFiles()) before.set(file, file.getFullText());
  let edits: FileEdit[];
  try {
    change();
  } finally {
    edits = restore(context, before);
  }
  return edits;
}

/** Collects the edits and undoes them, file by file. */
function restore(context: PassContext, before: ReadonlyMap<SourceFile, string>): FileEdit[] {
  const { project } = context;
  const edits: FileEdit[] = [];
  for (const [file, text] of before) {
    const path = relativePath(context, file.getFilePath());
    if (file.wasForgotten()) {
      edits.push({ path, before: text, after: null });
      project.createSourceFile(file.getFilePath(), text, { overwrite: true });
      continue;
    }
    const after = file.getFullText();
    if (after === text) continue;
    edits.push({ path, before: text, after: after.trim() === '' ? null : after });
    file.replaceWithText(text);
  }
  for (const file of project.getSourceFiles()) {
    if (before.has(file)) continue;
    // Passes simplify: none has a reason to add a file, so one that does is a bug to fix.
    project.removeSourceFile(file);
    throw new Error(`a simplification pass created ${file.getFilePath()}`);
  }
  return edits.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The repository-relative path of a project file. */
export function relativePath(context: Pick<PassContext, 'rootDir'>, absolute: string): string {
  const root = context.rootDir.endsWith('/') ? context.rootDir : `${context.rootDir}/`;
  return absolute.startsWith(root) ? absolute.slice(root.length) : absolute;
}

/** The project's source files a pass looks for opportunities in. */
export function scopedFiles(context: PassContext): SourceFile[] {
  return context.project
    .getSourceFiles()
    .filter((file) => context.scope.has(relativePath(context, file.getFilePath())));
}
