import { parse } from 'smol-toml';
import { baseName, folderOf, joinPath } from '../../analysis/repository-paths.js';
import { isRecord } from '../../model/json.js';
import type { PricedFile } from '../priced-files.js';
import type { InstalledPackage, InstalledPackages, OwnPackage } from './installed-packages.js';
import type { Ecosystem } from './manifest-reading.js';
import { normalizedName } from './python-manifests.js';

/** The manifest that makes a package a workspace's own, per ecosystem. */
interface OwnManifest {
  readonly is: (path: string) => boolean;
  /** The name the manifest gives its package; undefined where the name is not read. */
  readonly nameOf?: (text: string) => string | null;
  /** What the note asks for. */
  readonly wanted: string;
}

const MANIFESTS: Partial<Record<Ecosystem, OwnManifest>> = {
  npm: {
    is: (path) => baseName(path) === 'package.json',
    nameOf: (text) => stringAt(parsedJson(text), ['name']),
    wanted: 'package.json with that name, in its folder',
  },
  cargo: {
    is: (path) => baseName(path) === 'Cargo.toml',
    nameOf: (text) => stringAt(parsedToml(text), ['package', 'name']),
    wanted: 'Cargo.toml with that [package] name',
  },
  python: {
    is: (path) => baseName(path) === 'pyproject.toml',
    nameOf: (text) => {
      const name = stringAt(parsedToml(text), ['project', 'name']);
      return name === null ? null : normalizedName(name);
    },
    wanted: 'pyproject.toml with that [project] name, in its folder',
  },
  // A gemspec is Ruby code: its gem's name is not read, its place is.
  ruby: { is: (path) => path.endsWith('.gemspec'), wanted: 'a .gemspec in its folder' },
};

/**
 * The head lockfile with its workspace's own packages checked. A lockfile decides for itself
 * which packages are the workspace's own, and those cost nothing: a Cargo.lock whose `source`
 * lines are deleted would install its crates for free. So an own package the head adds (not
 * own in the base, same name and folder) stays free only when the change adds or modifies its
 * manifest at the place the lockfile names (anywhere, where it names none); any other is priced
 * as a package, and a note says why. Pricing sees only the changed files, so a member the
 * repository held before its lockfile called it own (a lockfile new to the change) is priced
 * too: the fail-closed side.
 */
export function checkedOwnPackages(
  path: string,
  ecosystem: Ecosystem,
  head: InstalledPackages,
  base: InstalledPackages,
  files: readonly PricedFile[],
  notes: string[],
): InstalledPackages {
  const before = new Set<string>();
  for (const { own } of base.packages.values()) if (own !== null) before.add(ownKey(own));
  const manifest = MANIFESTS[ecosystem];
  const held = manifest === undefined ? [] : heldManifests(files, manifest);
  const unproven: string[] = [];
  const packages = new Map<string, InstalledPackage>();
  for (const [key, entry] of head.packages) {
    const { own } = entry;
    if (own === null || before.has(ownKey(own)) || holds(held, folderOf(path), own)) {
      packages.set(key, entry);
    } else {
      unproven.push(own.name ?? (own.folder === '' ? '.' : (own.folder ?? entry.name)));
      packages.set(key, { ...entry, own: null });
    }
  }
  if (unproven.length === 0) return head;
  const wanted = manifest?.wanted ?? 'no manifest of this ecosystem is read';
  // A forged lockfile may call thousands of packages its own: the note names a few.
  const names =
    unproven.length > LISTED
      ? `${unproven.slice(0, LISTED).join(', ')} and ${unproven.length - LISTED} more`
      : unproven.join(', ');
  notes.push(
    `${path}: ${names}: the workspace's own by the lockfile, but the change adds no manifest of them (${wanted}): priced as packages.`,
  );
  return { packages, importers: head.importers };
}

const LISTED = 10;

/** An own package is the same in both lockfiles when it has the same name and folder. */
function ownKey(own: OwnPackage): string {
  return `${own.folder ?? ''}\n${own.name ?? ''}`;
}

/** A manifest the change adds or modifies: its folder and the name it gives (absent: not read). */
interface HeldManifest {
  readonly folder: string;
  readonly name?: string | null;
}

/** Read once per lockfile: a forged one may name thousands of own packages. */
function heldManifests(files: readonly PricedFile[], manifest: OwnManifest): HeldManifest[] {
  return files.flatMap(({ path, head }) => {
    const text = head?.version.text;
    if (text === undefined || !manifest.is(path)) return [];
    const folder = folderOf(path);
    return [manifest.nameOf === undefined ? { folder } : { folder, name: manifest.nameOf(text) }];
  });
}

/** Whether one of the change's manifests is that of `own`, where the lockfile places it. */
function holds(held: readonly HeldManifest[], lockfileFolder: string, own: OwnPackage): boolean {
  const folder = own.folder === null ? null : inside(joinPath(lockfileFolder, own.folder));
  // A folder outside the repository: no change can hold it.
  if (folder === undefined) return false;
  return held.some(
    (one) =>
      (folder === null || one.folder === folder) &&
      (own.name === null || one.name === undefined || one.name === own.name),
  );
}

/** A repository path with `.` and `..` folded; undefined when it climbs out of the root. */
function inside(path: string): string | undefined {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..' && parts.pop() === undefined) return undefined;
    if (part !== '..' && part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

function stringAt(document: unknown, keys: readonly string[]): string | null {
  let value = document;
  for (const key of keys) value = isRecord(value) ? value[key] : undefined;
  return typeof value === 'string' ? value : null;
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function parsedToml(text: string): unknown {
  try {
    return parse(text);
  } catch {
    return null;
  }
}
