import type { Project, SourceFile } from 'ts-morph';
import type { PublicApi } from './public-api/public-api.js';

/** The deterministic passes, one module each under passes/. */
export type PassName =
  | 'unused-code'
  | 'static-only-class'
  | 'single-implementation'
  | 'pass-through-wrapper'
  | 'inline-trivial-function'
  | 'duplicate-function'
  | 'early-return'
  /** Proposals of the optional model (simplify/model-assisted.ts), verified like the others. */
  | 'model-assisted';

/**
 * One file's text before and after a proposal, by repository-relative `/` path. `after` is null
 * when the proposal leaves the file with nothing in it: the file is deleted.
 */
export interface FileEdit {
  readonly path: string;
  readonly before: string;
  readonly after: string | null;
}

/** A simplification a pass found: not yet verified, never shown to anyone as it is. */
export interface Proposal {
  readonly pass: PassName;
  /** One line, in the imperative: "Inline `double` into its only caller". */
  readonly title: string;
  /** Where the simplified declaration is: repository-relative path and 1-based line. */
  readonly path: string;
  readonly line: number;
  readonly edits: readonly FileEdit[];
}

/** A candidate a pass found and leaves alone, with why: said, so "0 patches" is never unexplained. */
export interface Declined {
  readonly pass: PassName;
  /** What it is: "interface `Store`". */
  readonly title: string;
  readonly path: string;
  readonly line: number;
  readonly reason: string;
}

export interface PassContext {
  /**
   * The repository's TypeScript/JavaScript project. A pass may edit it while it works out a
   * proposal (captureEdits) but leaves it as it found it.
   */
  readonly project: Project;
  /** Absolute, `/`-separated folder the proposals' paths are relative to. */
  readonly rootDir: string;
  /**
   * Repository-relative paths a pass looks for opportunities in (a change's files, or every
   * file). References are followed across the whole project whatever the scope.
   */
  readonly scope: ReadonlySet<string>;
  /**
   * What code outside the repository may import (public-api.ts), computed once per run: no pass
   * removes, renames, inlines away or changes the signature of any of it.
   */
  readonly publicApi: PublicApi;
  /** Where a pass says which candidates it leaves alone, and why; none: not collected. */
  readonly decline?: (declined: Declined) => void;
}

export interface SimplificationPass {
  readonly name: PassName;
  /** The least `simplification.aggressiveness` that runs the pass. */
  readonly level: SimplificationAggressiveness;
  find(context: PassContext): Proposal[];
}

/**
 * `simplification.aggressiveness`: conservative removes dead code only; balanced also inlines and
 * drops single-implementation abstractions; aggressive also merges and restructures.
 */
export type SimplificationAggressiveness = 'conservative' | 'balanced' | 'aggressive';

const ORDER: readonly SimplificationAggressiveness[] = ['conservative', 'balanced', 'aggressive'];

/** Whether a pass of `level` runs under the policy's `setting`. */
export function runsAt(
  level: SimplificationAggressiveness,
  setting: SimplificationAggressiveness,
): boolean {
  return ORDER.indexOf(level) <= ORDER.indexOf(setting);
}

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
