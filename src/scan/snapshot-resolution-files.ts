import type { BlobKind } from '../model/change.js';
import type { RepositorySource, ResolutionFiles, UnreadableFile } from './repository-source.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

/** Where a snapshot read over the API appears to TypeScript, by default: a folder that exists nowhere. */
const VIRTUAL_ROOT = '/repository';
/**
 * The files TypeScript reads while it resolves. The lock files among the resolution inputs only
 * decide which stored answers hold (they change what node_modules holds): they are never downloaded.
 */
const TYPESCRIPT_READS = /(^|\/)(tsconfig[^/]*\.json|jsconfig[^/]*\.json|package\.json)$/;
const CONFIGS = /(^|\/)(tsconfig|jsconfig)[^/]*\.json$/;

/**
 * What resolution reads of a snapshot that is not on any disk: its paths, and the texts of its
 * tsconfig/jsconfig/package.json files read by blob, plus the repository files those configs
 * `extends` under other names (followed until none is new). A config that `extends` a package
 * cannot be followed: there is no node_modules over the API, so TypeScript reports it missing
 * and the config's own options apply, as on a clone where `npm install` did not run; bare
 * imports then resolve to the package they name (`unresolvedAnswer` in create-resolver.ts).
 */
export async function snapshotResolutionFiles(
  snapshot: readonly SnapshotFile[],
  readBlobs: RepositorySource['readBlobs'],
  rootDir: string = VIRTUAL_ROOT,
): Promise<ResolutionFiles> {
  const { configExtends } = await import('../analysis/resolve/emit-settings-of.js');
  const byPath = new Map(snapshot.map((file) => [file.path, file]));
  const texts = new Map<string, string>();
  const unreadable: UnreadableFile[] = [];
  let wanted = snapshot.filter((file) => TYPESCRIPT_READS.test(file.path));
  const asked = new Set(wanted.map((file) => file.path));
  const configs = new Set(wanted.flatMap((file) => (CONFIGS.test(file.path) ? [file.path] : [])));
  while (wanted.length > 0) {
    const next: SnapshotFile[] = [];
    for (const { version, problem } of await readBlobs(wanted)) {
      const { path } = version;
      if (version.kind !== 'text' || version.text === undefined) {
        const why = problem ?? notReadable(version.kind);
        if (why !== undefined) unreadable.push({ path, problem: why });
        continue;
      }
      // ts.sys.readFile drops a UTF-8 byte order mark; describeBlob keeps it.
      const text = version.text.replace(/^\uFEFF/, '');
      texts.set(path, text);
      if (!configs.has(path)) continue;
      for (const target of configExtends(path, text)) {
        const file = byPath.get(target);
        if (file === undefined || asked.has(target)) continue;
        asked.add(target);
        configs.add(target);
        next.push(file);
      }
    }
    wanted = next;
  }
  return {
    rootDir,
    paths: [...byPath.keys()],
    texts,
    onDisk: false,
    configs: [...asked],
    unreadable,
  };
}

/**
 * Why a resolution input has no text where a clone would have one. A binary or submodule
 * "config" fails to parse on a disk too, which gives the same defaults: not a gap.
 */
export function notReadable(kind: BlobKind): string | undefined {
  if (kind === 'symlink') return 'it is a symbolic link, which AUREUS does not follow';
  if (kind === 'too-large') return 'it is over the read limit';
  if (kind === 'unreadable') return 'its blob could not be read';
  return undefined;
}

/**
 * The texts of a language's own resolution configs (pyproject.toml, go.mod), read by blob, never
 * through a link. Unlike a tsconfig's defaults, such a config has no stand-in: any one without
 * text is a gap (`notText` says why for a kind notReadable passes over), and so is one `refuse`
 * finds its tool would refuse.
 */
export async function readConfigTexts(
  source: Pick<RepositorySource, 'readBlobs'>,
  files: readonly SnapshotFile[],
  notText: (kind: BlobKind) => string,
  refuse: (path: string, text: string) => string | undefined = () => undefined,
): Promise<{ texts: Map<string, string>; unreadable: UnreadableFile[] }> {
  const texts = new Map<string, string>();
  const unreadable: UnreadableFile[] = [];
  for (const { version, problem } of files.length === 0 ? [] : await source.readBlobs(files)) {
    const { path } = version;
    if (version.kind !== 'text' || version.text === undefined) {
      unreadable.push({
        path,
        problem: problem ?? notReadable(version.kind) ?? notText(version.kind),
      });
      continue;
    }
    texts.set(path, version.text);
    const refused = refuse(path, version.text);
    if (refused !== undefined) unreadable.push({ path, problem: refused });
  }
  return { texts, unreadable };
}
