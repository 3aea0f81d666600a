/** Package ecosystems `aureus init` reads manifests of. */
export type Ecosystem = 'npm' | 'python' | 'go' | 'maven' | 'gradle' | 'cargo';

/**
 * How a dependency is declared. `peer` (npm peerDependencies) is what a plugin or component
 * library declares for the framework it plugs into: it is not the project's own framework.
 */
export type DeclaredScope = 'runtime' | 'development' | 'peer';

export interface DeclaredDependency {
  /** npm name, normalized Python name, Go module path, Maven/Gradle `group:artifact`, crate. */
  readonly name: string;
  readonly scope: DeclaredScope;
}

/** What one manifest says about the project, each item worded as evidence for the reasoning. */
export interface ManifestFacts {
  readonly name: string | null;
  readonly dependencies: readonly DeclaredDependency[];
  /** Executables it declares: `bin "nodemon"`, `[project.scripts] "httpie"`. */
  readonly executables: readonly string[];
  /** What it exports to other code: `main`, `exports`, `[lib]`. */
  readonly libraryEntries: readonly string[];
  /** Folder globs of the workspace members it declares (npm workspaces, Cargo members, …). */
  readonly workspaces: readonly string[];
  /** package.json `scripts.test`, unless it is npm's "no test specified" placeholder. */
  readonly testScript: string | null;
  /** Test tools its configuration names (`[tool.pytest.ini_options]` → pytest). */
  readonly testTools: readonly string[];
}

/** Reads one kind of manifest; `read` gives null for a text that is not such a manifest. */
export interface ManifestReader {
  readonly ecosystem: Ecosystem;
  readonly reads: (fileName: string) => boolean;
  readonly read: (text: string, fileName: string) => ManifestFacts | null;
}

export function manifestFacts(partial: Partial<ManifestFacts>): ManifestFacts {
  return {
    name: null,
    dependencies: [],
    executables: [],
    libraryEntries: [],
    workspaces: [],
    testScript: null,
    testTools: [],
    ...partial,
  };
}

export function stringsOf(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}

/** The scope-tagged dependencies of a pricing reader's map (runtime or development). */
export function fromScopes(
  map: ReadonlyMap<string, 'runtime' | 'development'>,
): DeclaredDependency[] {
  return [...map].map(([name, scope]) => ({ name, scope }));
}
