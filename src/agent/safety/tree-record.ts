import {
  type BigIntStats,
  type Dirent,
  lstatSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { IndexEntry, IndexStat } from '../../git/index-file.js';
import { type GitDirs, objectId, readHead, writeLooseObject } from '../../git/loose-objects.js';
import { type FolderTrees, folderTreesOf, type TreeEntry } from '../../git/tree-id.js';
import { errnoCode } from '../../memory/errno-code.js';

/**
 * What the last checkpoint knew of the run's tree, so the next one can be taken without git
 * when git would find the same: every file of the snapshot with the stat data it had when its
 * blob was hashed (git's own index entries, or the files hashed here since), the paths git
 * listed as ignored, and the settings files that decide what is ignored or filtered.
 *
 * Nothing the agent writes is trusted by content or name: a file counts as unchanged only when
 * lstat gives back every field recorded (ctime included, which no program can set), as git's
 * own index does; a file whose mtime is not older than the moment it was recorded is hashed
 * again (git's racy-clean rule). Whatever git would have to decide — a path not seen before
 * (ignored or not), a changed .gitignore or .gitattributes, a changed mode, a link, a
 * submodule, a file with attributes or a carriage return (filters and end-of-line conversion),
 * a moved HEAD, a changed git config — makes the quick snapshot give up, and git takes it.
 */
export interface TreeRecord {
  readonly dirs: GitDirs;
  /** The commit HEAD named when the snapshot was taken. */
  readonly head: string;
  readonly files: ReadonlyMap<string, RecordedFile>;
  /** Every folder holding a recorded file. */
  readonly folders: ReadonlySet<string>;
  /**
   * Untracked paths git ignores, as it lists them: a folder with a trailing slash. A file in
   * place of an ignored folder (or the reverse) may not be ignored: git decides.
   */
  readonly ignored: ReadonlySet<string>;
  /** Each settings file outside the tree and its stat signature ('absent' when missing). */
  readonly settings: ReadonlyMap<string, string>;
  /** Tree ids known to be in the object store: written or found by an earlier snapshot. */
  readonly storedTrees: Set<string>;
  /** Each folder's tree as the last quick snapshot wrote it; undefined after git's snapshot. */
  readonly trees?: FolderTrees;
}

export interface RecordedFile {
  readonly mode: string;
  readonly blobSha: string;
  /** Null: to be hashed again before it is trusted (racily clean, or never stat'ed). */
  readonly stat: IndexStat | null;
  /** No attribute applies to the path: its blob is its bytes when they hold no CR. */
  readonly plain: boolean;
}

/** A snapshot taken without git: its tree (written), its files, and the record for the next. */
export interface QuickSnapshot {
  readonly tree: string;
  readonly head: string;
  readonly files: readonly TreeEntry[];
  readonly record: TreeRecord;
}

/** Names git reads rules from inside the tree: a change to one of them goes through git. */
const RULE_FILES = new Set(['.gitignore', '.gitattributes']);

/**
 * The record of a snapshot git just took: `entries` are its index file's (read after
 * `write-tree`), `indexTime` that file's mtime, `ignored` git's listing of ignored untracked
 * paths, `attributed` the paths some attribute applies to. Undefined when the snapshot holds
 * what the quick path never decides (a submodule).
 */
export function recordOf(
  dirs: GitDirs,
  head: string,
  entries: readonly IndexEntry[],
  indexTime: bigint,
  ignored: readonly string[],
  attributed: ReadonlySet<string>,
): TreeRecord | undefined {
  if (entries.some((entry) => entry.mode === '160000')) return undefined;
  const files = new Map<string, RecordedFile>();
  for (const { path, mode, blobSha, stat } of entries) {
    files.set(path, {
      mode,
      blobSha,
      stat: mtimeOf(stat) < indexTime ? stat : null,
      plain: !attributed.has(path),
    });
  }
  return {
    dirs,
    head,
    files,
    folders: foldersOf(files.keys()),
    ignored: new Set(ignored),
    settings: settingsSignatures(dirs),
    storedTrees: new Set(),
  };
}

/**
 * The run tree's snapshot as git would take it (`read-tree HEAD` + `add --all` + `write-tree`),
 * taken from the record and the file system alone, its new blobs and trees written as loose
 * objects; undefined whenever git has to decide. `marker` is a file of the run's (outside the
 * tree, on its file system) whose mtime dates the snapshot for the racy-clean rule.
 */
export function quickSnapshot(
  root: string,
  record: TreeRecord,
  marker: string,
): QuickSnapshot | undefined {
  try {
    return quickly(root, record, marker);
  } catch (error) {
    // A file deleted or replaced while walked: git takes the snapshot.
    if (errnoCode(error) !== undefined) return undefined;
    throw error;
  }
}

function quickly(root: string, record: TreeRecord, marker: string): QuickSnapshot | undefined {
  const { dirs } = record;
  const settings = settingsSignatures(dirs);
  for (const [path, signature] of settings)
    if (record.settings.get(path) !== signature) return undefined;
  if (readHead(dirs) !== record.head) return undefined;
  const seen = new Map<string, RecordedFile>();
  if (!walk(root, '', record, seen)) return undefined;
  // What was hashed here dates from now: a file whose mtime is not older is hashed next time.
  writeFileSync(marker, '');
  const now = mtimeOf(statData(lstatSync(marker, { bigint: true })));
  const files = new Map<string, RecordedFile>();
  const entries: TreeEntry[] = [];
  for (const [path, file] of seen) {
    const fresh = file.stat !== null && mtimeOf(file.stat) < now;
    files.set(path, fresh ? file : { ...file, stat: null });
    entries.push({ path, mode: file.mode, blobSha: file.blobSha });
  }
  // A deleted .gitignore or .gitattributes changes what git ignores or filters.
  for (const path of record.files.keys())
    if (!files.has(path) && RULE_FILES.has(baseName(path))) return undefined;
  // Most folders are as the last snapshot left them: their trees are not looked for again, and
  // those holding no path added, removed or changed since are not even computed again.
  const changed = changedFolders(record.files, seen);
  const trees = folderTreesOf(
    entries,
    (id, body) => {
      if (record.storedTrees.has(id)) return;
      writeLooseObject(dirs, 'tree', body, id);
      record.storedTrees.add(id);
    },
    record.trees === undefined
      ? undefined
      : { trees: record.trees, unchanged: (folder) => !changed.has(folder) },
  );
  const tree = trees?.ids.get('');
  if (trees === undefined || tree === undefined) return undefined;
  return {
    tree,
    head: record.head,
    files: entries,
    record: { ...record, files, folders: foldersOf(files.keys()), settings, trees },
  };
}

/**
 * The folders (the root as '') holding a path that is in one listing and not the other, or in
 * both with another mode or blob: their trees changed, and only theirs.
 */
function changedFolders(
  before: ReadonlyMap<string, RecordedFile>,
  after: ReadonlyMap<string, RecordedFile>,
): Set<string> {
  const changed = new Set<string>();
  const mark = (path: string) => {
    changed.add('');
    for (let end = path.lastIndexOf('/'); end > 0; end = path.lastIndexOf('/', end - 1)) {
      const folder = path.slice(0, end);
      if (changed.has(folder)) break;
      changed.add(folder);
    }
  };
  for (const [path, file] of after) {
    const was = before.get(path);
    if (was === undefined || was.blobSha !== file.blobSha || was.mode !== file.mode) mark(path);
  }
  for (const path of before.keys()) if (!after.has(path)) mark(path);
  return changed;
}

/** Walks one folder of the tree into `seen`; false when git has to decide something in it. */
function walk(
  root: string,
  folder: string,
  record: TreeRecord,
  seen: Map<string, RecordedFile>,
): boolean {
  let names: Dirent[];
  try {
    names = readdirSync(join(root, folder), { withFileTypes: true });
  } catch {
    return false;
  }
  for (const dirent of names) {
    const path = folder === '' ? dirent.name : `${folder}/${dirent.name}`;
    if (folder === '' && dirent.name === '.git') continue;
    const known = record.files.get(path);
    if (known !== undefined) {
      const file = current(record.dirs, root, path, known);
      if (file === undefined) return false;
      seen.set(path, file);
      continue;
    }
    // A folder holding recorded files is walked, whatever else git says of it.
    const folderOfFiles = record.folders.has(path);
    if (!folderOfFiles && record.ignored.has(dirent.isDirectory() ? `${path}/` : path)) continue;
    if (RULE_FILES.has(dirent.name)) return false;
    const stats = lstatSync(join(root, path));
    if (!stats.isDirectory()) return false;
    if (folderOfFiles) {
      if (!walk(root, path, record, seen)) return false;
    } else if (holdsAnyFile(join(root, path))) return false;
  }
  return true;
}

/** A recorded file as it is now, hashed again when its stat data changed; undefined: ask git. */
function current(
  dirs: GitDirs,
  root: string,
  path: string,
  known: RecordedFile,
): RecordedFile | undefined {
  const absolute = join(root, path);
  const before = lstatSync(absolute, { bigint: true });
  const stat = statData(before);
  if (known.stat !== null && sameStat(known.stat, stat)) return known;
  // Only a plain regular file keeping its mode is hashed here; git decides links and modes,
  // and what a changed .gitignore or .gitattributes ignores or filters.
  if (!known.plain || !before.isFile() || modeOf(before) !== known.mode) return undefined;
  if (RULE_FILES.has(baseName(path))) return undefined;
  const bytes = readFileSync(absolute);
  const after = statData(lstatSync(absolute, { bigint: true }));
  // Written while read, or a carriage return that end-of-line settings may convert.
  if (!sameStat(stat, after) || bytes.length !== Number(before.size) || bytes.includes(13))
    return undefined;
  const blobSha = objectId('blob', bytes);
  if (blobSha !== known.blobSha) writeLooseObject(dirs, 'blob', bytes, blobSha);
  return { ...known, blobSha, stat: after };
}

/** The mode git gives a regular file from its stat (core.filemode): executable by its owner or not. */
function modeOf(stats: BigIntStats): string {
  return (stats.mode & 0o100n) === 0n ? '100644' : '100755';
}

const NS = 1_000_000_000n;
const U32 = 0xffffffffn;

/** Stat data as git's index keeps it: 32-bit fields, seconds and nanoseconds apart. */
function statData(stats: BigIntStats): IndexStat {
  const u32 = (value: bigint) => Number(value & U32);
  return {
    ctimeS: u32(stats.ctimeNs / NS),
    ctimeNs: Number(stats.ctimeNs % NS),
    mtimeS: u32(stats.mtimeNs / NS),
    mtimeNs: Number(stats.mtimeNs % NS),
    dev: u32(stats.dev),
    ino: u32(stats.ino),
    uid: u32(stats.uid),
    gid: u32(stats.gid),
    size: u32(stats.size),
  };
}

/** Every field equal: stricter than git, which may skip nanoseconds and the device. */
function sameStat(a: IndexStat, b: IndexStat): boolean {
  return (
    a.ctimeS === b.ctimeS &&
    a.ctimeNs === b.ctimeNs &&
    a.mtimeS === b.mtimeS &&
    a.mtimeNs === b.mtimeNs &&
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.uid === b.uid &&
    a.gid === b.gid &&
    a.size === b.size
  );
}

export function mtimeOf(stat: IndexStat): bigint {
  return BigInt(stat.mtimeS) * NS + BigInt(stat.mtimeNs);
}

/** The mtime of a file in nanoseconds, as the index would store it. */
export function mtimeOfFile(path: string): bigint {
  return mtimeOf(statData(lstatSync(path, { bigint: true })));
}

function foldersOf(paths: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const path of paths) {
    for (let end = path.lastIndexOf('/'); end > 0; end = path.lastIndexOf('/', end - 1)) {
      const folder = path.slice(0, end);
      if (folders.has(folder)) break;
      folders.add(folder);
    }
  }
  return folders;
}

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** Whether a folder git does not know holds anything but folders (git adds no empty folder). */
function holdsAnyFile(folder: string): boolean {
  for (const dirent of readdirSync(folder, { withFileTypes: true })) {
    if (!dirent.isDirectory() || holdsAnyFile(join(folder, dirent.name))) return true;
  }
  return false;
}

/**
 * The files outside the tree whose settings decide what git ignores or how it filters (config,
 * info/exclude, info/attributes, the user's and the system's), each with a signature that any
 * change to it changes. git itself is asked again when one of them changed.
 */
function settingsSignatures(dirs: GitDirs): Map<string, string> {
  const xdg = process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config');
  const paths = [
    join(dirs.commonDir, 'config'),
    join(dirs.commonDir, 'config.worktree'),
    join(dirs.gitDir, 'config.worktree'),
    join(dirs.commonDir, 'info', 'exclude'),
    join(dirs.commonDir, 'info', 'attributes'),
    join(dirs.gitDir, 'info', 'attributes'),
    join(homedir(), '.gitconfig'),
    join(xdg, 'git', 'config'),
    join(xdg, 'git', 'ignore'),
    join(xdg, 'git', 'attributes'),
    '/etc/gitconfig',
    '/etc/gitattributes',
    ...['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM'].flatMap((name) => {
      const value = process.env[name];
      return value === undefined || value === '' ? [] : [value];
    }),
  ];
  const signatures = new Map<string, string>();
  for (const path of paths) {
    try {
      const stats = lstatSync(path, { bigint: true });
      signatures.set(path, `${stats.mtimeNs}:${stats.ctimeNs}:${stats.size}:${stats.ino}`);
    } catch (error) {
      if (errnoCode(error) === undefined) throw error;
      signatures.set(path, 'absent');
    }
  }
  return signatures;
}
