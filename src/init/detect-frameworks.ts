import { FRAMEWORKS, type FrameworkKind, namesPackage } from './framework-table.js';
import type { ProjectManifests } from './manifests/read-project-manifests.js';
import type { Inferred } from './project-intelligence.js';
import { listed } from './wording.js';

export interface FrameworkMatch {
  readonly name: string;
  readonly kind: FrameworkKind;
  /** The dependency that names it. */
  readonly dependency: string;
}

/**
 * The frameworks the project runs on, from the FRAMEWORKS table. Runtime dependencies count;
 * peer dependencies never (a plugin for a framework is not built on it); development ones only
 * for a package that exports nothing and installs no command: such a package is an app whose
 * bundler carries its frameworks (SvelteKit's template declares everything as devDependencies).
 */
export function detectFrameworks(manifests: ProjectManifests): Inferred<readonly FrameworkMatch[]> {
  const bundled = manifests.libraryEntries.length === 0 && manifests.executables.length === 0;
  const counted = manifests.dependencies.filter(
    (dependency) =>
      dependency.scope === 'runtime' || (bundled && dependency.scope === 'development'),
  );
  const names = new Set(counted.map((dependency) => dependency.name));
  const value: FrameworkMatch[] = [];
  for (const framework of FRAMEWORKS) {
    if (framework.notWith?.some((name) => names.has(name))) continue;
    const found = counted.find(
      (dependency) =>
        framework.ecosystems.includes(dependency.ecosystem) &&
        namesPackage(framework.packages, dependency.name),
    );
    if (found !== undefined && !value.some((match) => match.name === framework.name)) {
      value.push({ name: framework.name, kind: framework.kind, dependency: found.name });
    }
  }
  const scopes = bundled ? 'dependencies and devDependencies' : 'runtime dependencies';
  if (value.length === 0) return { value, reason: `no known framework among the ${scopes}` };
  const found = value.map((match) =>
    match.dependency === match.name ? match.name : `${match.name} (${match.dependency})`,
  );
  return { value, reason: `from the ${scopes}: ${listed(found, 6)}` };
}
