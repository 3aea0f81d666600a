/**
 * Where an import specifier leads. `file` paths are relative to the repository root and use `/`;
 * a file of a workspace package reached through a node_modules symlink is a `file` too.
 */
export type Resolution =
  | { readonly kind: 'file'; readonly path: string }
  /**
   * The import reaches each of these files: a Go package's (a folder), or every file declaring
   * a Java type the repository declares more than once.
   */
  | { readonly kind: 'package'; readonly paths: readonly string[] }
  | { readonly kind: 'external'; readonly packageName: string }
  | { readonly kind: 'builtin' }
  | { readonly kind: 'unresolved' };

/** Resolves `specifier` as imported by `fromFile` (repository-relative, `/`-separated). */
export type ResolveImport = (fromFile: string, specifier: string) => Resolution;

/** The repository files an import reaches: none, one, or a whole package's. */
export function resolvedFiles(resolution: Resolution): readonly string[] {
  if (resolution.kind === 'file') return [resolution.path];
  return resolution.kind === 'package' ? resolution.paths : [];
}
