// The real TypeScript code bases AUREUS's cycle search is compared on: packages from the npm
// registry that ship their `.ts` sources, pinned, of three sizes, with and without cycles.

import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/**
 * `tsconfig`: written into the copy when the package ships none, modelled on the package's own
 * repository settings (zod imports `./x.js`, effect `./X.ts`; both are NodeNext ESM packages).
 */
export const CODEBASES = [
  { name: 'rxjs', version: '7.8.2', sources: 'src' },
  {
    name: 'zod',
    version: '4.6.7',
    sources: 'src',
    tsconfig: {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      allowImportingTsExtensions: true,
    },
  },
  {
    name: 'effect',
    version: '4.1.0',
    sources: 'src',
    tsconfig: {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      allowImportingTsExtensions: true,
    },
  },
  {
    // Dependency injection (inversify decorators with their metadata) and TSX: the imports
    // decorator metadata keeps decide its runtime cycles. Its own dependencies are not
    // installed (`dependencies: false`): they are packages, in no cycle between its files.
    name: '@theia/core',
    version: '1.75.0',
    sources: 'src',
    dependencies: false,
    // theia's configs/base.tsconfig.json, as far as it decides resolution and the emit.
    tsconfig: {
      module: 'commonjs',
      moduleResolution: 'node',
      jsx: 'react',
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      strictNullChecks: true,
    },
  },
];

/** Outside the repository, so that no tool run inside it (jest, biome, tsc) ever sees them. */
export function referenceDir() {
  return process.env.AUREUS_REFERENCE_DIR ?? join(tmpdir(), 'aureus-reference-codebases');
}

/** `<referenceDir>/<name>@<version>`: npm installs there; `repo/` is the copy to analyse. */
export function codebaseDir(codebase) {
  return join(referenceDir(), `${codebase.name}@${codebase.version}`);
}

export function repoDir(codebase) {
  return join(codebaseDir(codebase), 'repo');
}

/** `.ts`/`.tsx`/`.mts`/`.cts` sources, declaration files excluded: what every tool is given. */
export function sourceFiles(repo, sources) {
  return readdirSync(join(repo, sources), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !DECLARATION.test(entry.name))
    .map((entry) => relative(repo, join(entry.parentPath, entry.name)).replaceAll('\\', '/'))
    .sort();
}

export const SOURCE = /\.(?:m|c)?tsx?$/;
export const DECLARATION = /\.d\.(?:m|c)?ts$/;
