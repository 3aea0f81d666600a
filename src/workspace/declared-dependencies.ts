import type { Change } from '../model/change.js';

const SECTIONS = new Set([
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
]);

/**
 * The direct npm dependencies declared at the base, from the base version of package.json when
 * the change touches it: alternatives are only needed for dependencies a change adds, and a
 * change that adds one edits package.json.
 */
export function declaredDependencies(change: Change): Set<string> {
  const names = new Set<string>();
  for (const file of change.files) {
    if (!/(^|\/)package\.json$/.test(file.path) || file.base?.text === undefined) continue;
    try {
      const manifest: unknown = JSON.parse(file.base.text);
      if (typeof manifest !== 'object' || manifest === null) continue;
      for (const field of [
        'dependencies',
        'devDependencies',
        'optionalDependencies',
        'peerDependencies',
      ]) {
        const section: unknown = field in manifest ? Reflect.get(manifest, field) : undefined;
        if (typeof section === 'object' && section !== null)
          for (const name of Object.keys(section)) names.add(name);
      }
    } catch {
      // A base manifest that is not JSON declares nothing AUREUS can read; pricing reports it.
    }
  }
  return names;
}
