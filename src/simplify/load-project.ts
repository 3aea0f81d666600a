import { join } from 'node:path';
import { Project, ts } from 'ts-morph';
import { NOT_FOUND } from '../git/contained-file.js';
import type { ContainedFileSystem } from './contained-file-system.js';

/** When a repository has no tsconfig.json: what a JavaScript or TypeScript project compiles as. */
const DEFAULT_OPTIONS: ts.CompilerOptions = {
  allowJs: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  skipLibCheck: true,
  noEmit: true,
};

/** A project file reflexion did not read, and why. */
export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

/**
 * The repository's TypeScript project for reflexion: the compiler options of its root
 * tsconfig.json (so types resolve as the project's own build resolves them, node_modules
 * included), holding exactly the tracked source files given, absolute paths, every read going
 * through `fileSystem`. A tsconfig.json it may not read (a link, a FIFO) gives the defaults,
 * and is returned as skipped.
 */
export function loadProject(
  root: string,
  files: readonly string[],
  fileSystem: ContainedFileSystem,
): { readonly project: Project; readonly skipped: readonly SkippedFile[] } {
  const tsConfigFilePath = join(root, 'tsconfig.json');
  const problem = fileSystem.sourceProblem(tsConfigFilePath);
  const project =
    problem === undefined
      ? // allowJs: the tracked JavaScript (scripts, tests) is in the project so that its references
        // count, and TypeScript's checker only reads JavaScript soundly in a program that allows it.
        new Project({
          tsConfigFilePath,
          skipAddingFilesFromTsConfig: true,
          compilerOptions: { allowJs: true },
          fileSystem,
        })
      : new Project({ compilerOptions: DEFAULT_OPTIONS, fileSystem });
  for (const file of files) project.addSourceFileAtPath(file);
  const skipped =
    problem === undefined || problem === NOT_FOUND
      ? []
      : [{ path: 'tsconfig.json', reason: problem }];
  return { project, skipped };
}
