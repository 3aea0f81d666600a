import type * as ts from 'typescript';
import { typescript } from '../typescript-runtime.js';

/**
 * Options for files that no tsconfig.json governs (plain JavaScript projects, loose scripts).
 * Bundler resolution, because it is the most forgiving mode that still reads package.json
 * `exports`: extensionless and `index` imports resolve, `.js` finds `.ts`, and workspace
 * packages that only export through `exports` resolve too (Node10 ignores `exports`).
 */
export const DEFAULT_COMPILER_OPTIONS: ts.CompilerOptions = Object.freeze({
  allowJs: true,
  resolveJsonModule: true,
  module: typescript.ModuleKind.ESNext,
  moduleResolution: typescript.ModuleResolutionKind.Bundler,
  target: typescript.ScriptTarget.ESNext,
});

/**
 * The options AUREUS resolves a file's imports with: the project's own, with JavaScript and
 * JSON always allowed. A project compiled without `allowJs` still imports `.js` files at run
 * time (tsc reports them as errors); the dependency is real either way.
 */
export function resolutionOptions(projectOptions: ts.CompilerOptions): ts.CompilerOptions {
  return { ...projectOptions, allowJs: true, resolveJsonModule: true };
}

/**
 * The retry for imports the project's own mode cannot resolve: Bundler resolution with the
 * project's `paths`/`baseUrl`. It finds what Node16's ESM rules or Classic resolution refuse
 * (extensionless relative imports, packages in node_modules), because an import that tsc
 * reports as an error is still an import the author meant.
 */
export function fallbackOptions(projectOptions: ts.CompilerOptions): ts.CompilerOptions {
  const { paths, baseUrl, pathsBasePath, customConditions } = projectOptions;
  return {
    ...DEFAULT_COMPILER_OPTIONS,
    ...(paths === undefined ? {} : { paths }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(pathsBasePath === undefined ? {} : { pathsBasePath }),
    ...(customConditions === undefined ? {} : { customConditions }),
  };
}

/** Node16/NodeNext pick `import` or `require` conditions by the importing file's format. */
export function usesNodeModuleFormats(options: ts.CompilerOptions): boolean {
  const kind = options.moduleResolution;
  return (
    kind === typescript.ModuleResolutionKind.Node16 ||
    kind === typescript.ModuleResolutionKind.NodeNext
  );
}
