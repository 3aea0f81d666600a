import { detectLanguage } from '../analysis/detect-language.js';
import { goConfigProblem, goImportResolver } from '../analysis/resolve/go-imports.js';
import type { ResolveImport } from '../analysis/resolve/resolution.js';
import type { FileFacts } from '../model/facts.js';
import type { RepositorySource, UnreadableFile } from './repository-source.js';
import { notReadable } from './snapshot-resolution-files.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

const GO_CONFIGS = /(^|\/)go\.(mod|work)$/;

/** What Go's resolution reads of a snapshot: its paths, and its go.mod and go.work files. */
export interface GoConfigs {
  readonly paths: readonly string[];
  readonly texts: ReadonlyMap<string, string>;
  readonly unreadable: readonly UnreadableFile[];
}

export function isGoFile(path: string): boolean {
  return detectLanguage(path) === 'go';
}

/**
 * The snapshot's go.mod and go.work files, by which its Go imports resolve, read by blob from
 * the snapshot (a symbolic link is not followed). One that cannot be read leaves the analysis
 * incomplete: the modules it declares would be missing and their imports look external. So does
 * one the go command would refuse (goConfigProblem), such as a go.mod with no `module` line.
 * Undefined when the snapshot has no Go file, so nothing is read.
 */
export async function readGoConfigs(
  source: RepositorySource,
  snapshot: readonly SnapshotFile[],
): Promise<GoConfigs | undefined> {
  if (!snapshot.some((file) => isGoFile(file.path))) return undefined;
  const texts = new Map<string, string>();
  const unreadable: UnreadableFile[] = [];
  for (const { version, problem } of await source.readBlobs(
    snapshot.filter((file) => GO_CONFIGS.test(file.path)),
  )) {
    if (version.kind === 'text' && version.text !== undefined) {
      texts.set(version.path, version.text);
      const refused = goConfigProblem(version.path, version.text);
      if (refused !== undefined) unreadable.push({ path: version.path, problem: refused });
      continue;
    }
    const why = problem ?? notReadable(version.kind) ?? `it is not text (${version.kind})`;
    unreadable.push({ path: version.path, problem: why });
  }
  return { paths: snapshot.map((file) => file.path), texts, unreadable };
}

/** Go's import answers, once the files' facts tell which are in no build (`buildIgnored`). */
export function goResolver(go: GoConfigs, facts: ReadonlyMap<string, FileFacts>): ResolveImport {
  const built = go.paths.filter((path) => facts.get(path)?.buildIgnored !== true);
  return goImportResolver(built, go.texts);
}
