import type { Change } from '../model/change.js';
import { npmManifest } from '../pricing/dependencies/npm-manifest.js';

/**
 * The direct npm dependencies declared at the base, from the base version of package.json when
 * the change touches it: alternatives are only needed for dependencies a change adds, and a
 * change that adds one edits package.json. A manifest that does not read declares nothing here;
 * pricing reports it.
 */
export function declaredDependencies(change: Change): Set<string> {
  const names = new Set<string>();
  for (const file of change.files) {
    if (!npmManifest.reads(file.path) || file.base?.text === undefined) continue;
    const reading = npmManifest.read(file.base.text, file.path);
    if (reading.ok) for (const name of reading.dependencies.keys()) names.add(name);
  }
  return names;
}
