/**
 * What a manifest declares, read from one version's text. `development` dependencies (npm
 * devDependencies, Python dev groups, Maven test scope) are priced at `test_code_weight`: they
 * never ship, but they still run on every developer's and CI's machine.
 */
export type DependencyScope = 'runtime' | 'development';

/** Declared dependencies by name. A name declared in both scopes is `runtime`. */
export type DeclaredDependencies = ReadonlyMap<string, DependencyScope>;

/** A manifest read, or why it could not be (never a throw: a malformed manifest is a note). */
export type ManifestReading =
  | { readonly ok: true; readonly dependencies: DeclaredDependencies }
  | { readonly ok: false; readonly problem: string };

/** Cargo and Ruby have lockfiles AUREUS reads but no manifest it reads yet. */
export type Ecosystem = 'npm' | 'python' | 'go' | 'maven' | 'cargo' | 'ruby';

export interface ManifestReader {
  readonly ecosystem: Ecosystem;
  /** Whether a repository path is a manifest this reader reads (by its file name). */
  readonly reads: (path: string) => boolean;
  readonly read: (text: string, path: string) => ManifestReading;
}

/** Collects declarations, letting `runtime` win over `development` for a name in both. */
export function declare(into: Map<string, DependencyScope>, name: string, scope: DependencyScope) {
  if (name === '') return;
  if (into.get(name) !== 'runtime') into.set(name, scope);
}

export function problemOf(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? 'unreadable') : String(error);
}
