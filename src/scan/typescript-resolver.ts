import type * as ts from 'typescript';
import { createResolver, type Resolver } from '../analysis/resolve/create-resolver.js';
import { createTypeScriptHost, diskResolutionHost } from '../memory/typescript-host.js';
import type { ResolutionFiles } from './repository-source.js';
import { createOverlayHost, createSnapshotHost } from './snapshot-host.js';

/**
 * TypeScript's resolver over one snapshot's resolution files, on whichever thread calls it: the
 * snapshot's own paths and config texts, and, for a clone, the disk for what the snapshot does
 * not hold (see createOverlayHost). Importing this module loads TypeScript (~100 ms with its
 * compiled code kept, ~200 ms without): import it lazily.
 */
export function typeScriptResolver(files: ResolutionFiles): Resolver {
  const { rootDir } = files;
  const snapshot = createSnapshotHost({ rootDir, paths: files.paths, texts: files.texts });
  const host: ts.ModuleResolutionHost = files.onDisk
    ? createOverlayHost(rootDir, snapshot, diskResolutionHost(rootDir))
    : snapshot;
  const typeScriptHost = createTypeScriptHost(rootDir, host);
  const tracked = new Set(files.paths);
  return createResolver({
    rootDir,
    tracked: (path) => tracked.has(path),
    host: typeScriptHost.host,
    compilerOptionsFor: typeScriptHost.compilerOptionsFor,
  });
}
