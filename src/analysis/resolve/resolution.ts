/**
 * Where an import specifier leads. `file` paths are relative to the repository root and use `/`;
 * a file of a workspace package reached through a node_modules symlink is a `file` too.
 */
export type Resolution =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'external'; readonly packageName: string }
  | { readonly kind: 'builtin' }
  | { readonly kind: 'unresolved' };

/** Resolves `specifier` as imported by `fromFile` (repository-relative, `/`-separated). */
export type ResolveImport = (fromFile: string, specifier: string) => Resolution;
