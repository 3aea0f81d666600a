import { parse } from 'smol-toml';
import { isRecord, recordOf, stringsOf } from '../../model/json.js';
import type {
  InstalledPackage,
  InstalledPackages,
  LockfileReading,
  OwnPackage,
} from './installed-packages.js';
import { problemOf } from './manifest-reading.js';
import { normalizedName } from './python-manifests.js';

/** A `[[package]]` read: its key, its name, whether it is the project's own and what it needs. */
interface Locked {
  readonly key: string;
  readonly name: string;
  readonly own: OwnPackage | null;
  /** `[name, version?]`: the version only where the lockfile names one (several are locked). */
  readonly needs: readonly (readonly [string, string | undefined])[];
}

/**
 * `Cargo.lock`: each `[[package]]` is `name`, `version`, `source` and `dependencies`
 * (`"name"`, or `"name version"` when several versions are locked). A package without a
 * `source` is the workspace's own (a member or a path dependency), at a folder Cargo.lock does
 * not record. Cargo records no build scripts.
 */
export function readCargoLockfile(text: string): LockfileReading {
  return lockedOf(text, (entry) => ({
    key: `${String(entry.name)} ${String(entry.version)}`,
    name: String(entry.name),
    own: entry.source === undefined ? { name: String(entry.name), folder: null } : null,
    needs: stringsOf(entry.dependencies).map((spec) => {
      const [name = '', version] = spec.split(' ');
      return [name, version] as const;
    }),
  }));
}

/**
 * `poetry.lock`: each `[[package]]` is `name`, `version` and `[package.dependencies]` (a
 * version, or a table with markers or `optional`). The project itself is not in it; every
 * dependency it declares resolves by name, as Poetry locks one version of each. Dependencies
 * the lock does not hold (another platform's) are left out.
 */
export function readPoetryLockfile(text: string): LockfileReading {
  return lockedOf(text, (entry) => ({
    key: normalizedName(String(entry.name)),
    name: normalizedName(String(entry.name)),
    own: null,
    needs: Object.keys(recordOf(entry.dependencies)).map(
      (name) => [normalizedName(name), undefined] as const,
    ),
  }));
}

/**
 * `uv.lock`: each `[[package]]` is `name`, `version`, `source` and `dependencies` as
 * `{ name, version? }` tables, with extras under `optional-dependencies` and, for the project's
 * own packages (`source` `editable` or `virtual`, their folder, or `workspace`), groups under
 * `dev-dependencies`. Extras a package defines count as needed: uv locks them only when some
 * package asks for them.
 */
export function readUvLockfile(text: string): LockfileReading {
  return lockedOf(text, (entry) => {
    const source = recordOf(entry.source);
    const name = normalizedName(String(entry.name));
    const kind = ['editable', 'virtual', 'workspace'].find((one) => one in source);
    const folder = kind === undefined ? undefined : source[kind];
    const groups = [entry['optional-dependencies'], entry['dev-dependencies']].flatMap((table) =>
      Object.values(recordOf(table)),
    );
    return {
      key: `${normalizedName(String(entry.name))} ${String(entry.version)}`,
      name,
      own: kind === undefined ? null : { name, folder: typeof folder === 'string' ? folder : null },
      needs: [entry.dependencies, ...groups].flatMap((list) =>
        (Array.isArray(list) ? list : []).filter(isRecord).map((need) => {
          const version = typeof need.version === 'string' ? need.version : undefined;
          return [normalizedName(String(need.name)), version] as const;
        }),
      ),
    };
  });
}

/**
 * The `[[package]]` array of a TOML lockfile, resolved: a need with a version is the package
 * of that name and version, one without is the package of that name (the last, where several
 * are). These formats do not say which packages the project declared, so a manifest's
 * dependency resolves by name the same way.
 */
function lockedOf(text: string, read: (entry: Record<string, unknown>) => Locked): LockfileReading {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    return { ok: false, problem: `not valid TOML (${problemOf(error)})` };
  }
  const entries = isRecord(document) && Array.isArray(document.package) ? document.package : [];
  const locked = entries.filter(isRecord).map(read);
  const byName = new Map<string, string>();
  for (const { key } of locked) byName.set(key.split(' ')[0] ?? key, key);
  const keyOf = ([name, version]: readonly [string, string | undefined]) =>
    version === undefined ? byName.get(name) : `${name} ${version}`;
  const packages = new Map<string, InstalledPackage>();
  for (const { key, name, own, needs } of locked) {
    packages.set(key, {
      name,
      own,
      dependencies: needs.flatMap((need) => keyOf(need) ?? []),
      installScript: false,
    });
  }
  const lockfile: InstalledPackages = { packages, importers: new Map([['', byName]]) };
  return { ok: true, lockfile };
}
