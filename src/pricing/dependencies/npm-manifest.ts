import { baseName } from '../../analysis/repository-paths.js';
import { isRecord } from '../../model/json.js';
import {
  type DependencyScope,
  declare,
  type ManifestReader,
  problemOf,
} from './manifest-reading.js';

/** package.json sections and the scope each gives its names. */
const SECTIONS: readonly (readonly [string, DependencyScope])[] = [
  ['dependencies', 'runtime'],
  ['optionalDependencies', 'runtime'],
  ['peerDependencies', 'runtime'],
  ['devDependencies', 'development'],
];

/**
 * npm's `package.json`: the names in `dependencies`, `optionalDependencies` and
 * `peerDependencies` (runtime) and `devDependencies` (development). Text that is not JSON, or
 * JSON that is not an object, is a problem; a section that is not an object is skipped.
 */
export const npmManifest: ManifestReader = {
  ecosystem: 'npm',
  reads: (path) => baseName(path) === 'package.json',
  read(text) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return { ok: false, problem: `not valid JSON (${problemOf(error)})` };
    }
    if (!isRecord(parsed)) return { ok: false, problem: 'not a JSON object' };
    const dependencies = new Map<string, DependencyScope>();
    for (const [section, scope] of SECTIONS) {
      const names = parsed[section];
      if (!isRecord(names)) continue;
      for (const name of Object.keys(names)) declare(dependencies, name, scope);
    }
    return { ok: true, dependencies };
  },
};
