import { baseName } from '../../analysis/repository-paths.js';
import type { DependencyScope, ManifestReader } from './manifest-reading.js';

/**
 * Go's `go.mod`: the module paths of its `require` directives, one-line (`require a/b v1.2.3`)
 * or in a block (`require ( … )`). A requirement marked `// indirect` is a transitive one
 * `go mod tidy` records, not a dependency the code chose, so it is left out. `replace`,
 * `exclude` and `retract` add nothing. Go has no development scope. A file without a `module`
 * directive is not a go.mod (a problem).
 */
export const goMod: ManifestReader = {
  ecosystem: 'go',
  reads: (path) => baseName(path) === 'go.mod',
  read(text) {
    const lines = text.split(/\r?\n/).map((line) => line.trim());
    if (!lines.some((line) => /^module\s+\S/.test(line))) {
      return { ok: false, problem: 'no `module` directive' };
    }
    const dependencies = new Map<string, DependencyScope>();
    let inBlock = false;
    for (const line of lines) {
      if (inBlock && line.startsWith(')')) inBlock = false;
      else if (/^require\s*\(/.test(line)) inBlock = true;
      else if (inBlock || line.startsWith('require ')) {
        const requirement = inBlock ? line : line.slice('require '.length);
        const match = /^("?)([^\s"]+)\1\s+v\S+/.exec(requirement.trim());
        if (match?.[2] !== undefined && !/\/\/\s*indirect\b/.test(requirement)) {
          dependencies.set(match[2], 'runtime');
        }
      }
    }
    return { ok: true, dependencies };
  },
};
