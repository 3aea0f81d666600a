import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Project, ts } from 'ts-morph';

/** When a repository has no tsconfig.json: what a JavaScript or TypeScript project compiles as. */
const DEFAULT_OPTIONS: ts.CompilerOptions = {
  allowJs: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  skipLibCheck: true,
  noEmit: true,
};

/**
 * The repository's TypeScript project for reflexion: the compiler options of its root
 * tsconfig.json (so types resolve as the project's own build resolves them, node_modules
 * included), holding exactly the tracked source files given, absolute paths.
 */
export function loadProject(root: string, files: readonly string[]): Project {
  const tsConfigFilePath = join(root, 'tsconfig.json');
  const project = existsSync(tsConfigFilePath)
    ? // allowJs: the tracked JavaScript (scripts, tests) is in the project so that its references
      // count, and TypeScript's checker only reads JavaScript soundly in a program that allows it.
      new Project({
        tsConfigFilePath,
        skipAddingFilesFromTsConfig: true,
        compilerOptions: { allowJs: true },
      })
    : new Project({ compilerOptions: DEFAULT_OPTIONS });
  for (const file of files) project.addSourceFileAtPath(file);
  return project;
}
