import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A worker entry bundled beside the CLI bundle (`npm run build`): next to this module or one
 * folder up when this module is one of the bundle's chunks; from the TypeScript sources (the
 * tests), the built one under the package's dist/cli-bundle/. Undefined where none was built
 * (the Action's single-file bundle ships none).
 */
export function bundledWorker(fileName: string): URL | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, fileName), join(here, '..', fileName)];
  for (let folder = here; dirname(folder) !== folder; folder = dirname(folder))
    if (existsSync(join(folder, 'package.json'))) {
      candidates.push(join(folder, 'dist', 'cli-bundle', fileName));
      break;
    }
  const found = candidates.find((candidate) => existsSync(candidate));
  return found === undefined ? undefined : pathToFileURL(found);
}
