import { parse } from 'smol-toml';
import { isRecord } from '../../model/json.js';
import {
  type DeclaredDependency,
  type ManifestReader,
  manifestFacts,
  stringsOf,
} from './manifest-facts.js';

/**
 * Cargo.toml: the package name, `[dependencies]` (runtime) and `[dev-dependencies]`,
 * `[[bin]]` targets and `[lib]`, `[workspace] members`. Cargo's own conventions (src/main.rs is
 * a binary, src/lib.rs a library) are files, which infer-project reads from the file list.
 */
export const cargoToml: ManifestReader = {
  ecosystem: 'cargo',
  reads: (fileName) => fileName === 'Cargo.toml',
  read(text) {
    let document: unknown;
    try {
      document = parse(text);
    } catch {
      return null;
    }
    if (!isRecord(document)) return null;
    const dependencies: DeclaredDependency[] = [
      ...keys(document.dependencies).map((name) => ({ name, scope: 'runtime' as const })),
      ...keys(document['dev-dependencies']).map((name) => ({
        name,
        scope: 'development' as const,
      })),
    ];
    const bins = Array.isArray(document.bin) ? document.bin.filter(isRecord) : [];
    const name = isRecord(document.package) ? document.package.name : undefined;
    return manifestFacts({
      name: typeof name === 'string' ? name : null,
      dependencies,
      executables: bins.map((bin) => `[[bin]] "${typeof bin.name === 'string' ? bin.name : '?'}"`),
      libraryEntries: document.lib === undefined ? [] : ['[lib]'],
      workspaces: isRecord(document.workspace) ? stringsOf(document.workspace.members) : [],
    });
  },
};

function keys(value: unknown): string[] {
  return isRecord(value) ? Object.keys(value) : [];
}
