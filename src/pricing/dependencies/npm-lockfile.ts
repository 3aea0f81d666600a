import { folderOf } from '../../analysis/repository-paths.js';
import { isRecord } from '../../model/json.js';
import type { InstalledPackage, LockfileReading } from './installed-packages.js';
import { problemOf } from './manifest-reading.js';

const REQUIRE_SECTIONS = ['dependencies', 'optionalDependencies', 'peerDependencies'];

/**
 * Reads `package-lock.json` / `npm-shrinkwrap.json` v2 or v3 (the `packages` map). A v1
 * lockfile (only the nested `dependencies` tree, npm ≤ 6) is a problem: npm has written v2
 * since 2020, and reading a second format for a dying one is not worth its code.
 *
 * Keys are install paths (`node_modules/a/node_modules/@s/b`), and a name resolves as Node
 * resolves it: `<from>/node_modules/<name>`, then the same in each folder above. A `link: true`
 * entry (a workspace package, in the folder it resolves to) and a folder entry (`''`,
 * `packages/a`) are the workspace's own.
 * Peer dependencies count: npm ≥ 7 installs them.
 */
export function readNpmLockfile(text: string): LockfileReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not valid JSON (${problemOf(error)})` };
  }
  if (!isRecord(parsed)) return { ok: false, problem: 'not a JSON object' };
  const entries = parsed.packages;
  if (!isRecord(entries)) return { ok: false, problem: 'no `packages` map (lockfile v1?)' };
  // Folder → the names installed in its node_modules: what Node finds there.
  const children = new Map<string, Map<string, string>>();
  for (const key of Object.keys(entries)) {
    const at = key.lastIndexOf('node_modules/');
    if (at < 0) continue;
    const folder = key.slice(0, Math.max(0, at - 1));
    const here = children.get(folder) ?? new Map<string, string>();
    here.set(key.slice(at + 'node_modules/'.length), key);
    children.set(folder, here);
  }
  const resolve = (from: string, name: string): string | undefined => {
    for (let folder = from; ; folder = folderOf(folder)) {
      const found = children.get(folder)?.get(name);
      if (found !== undefined || folder === '') return found;
    }
  };
  const packages = new Map<string, InstalledPackage>();
  for (const [key, value] of Object.entries(entries)) {
    if (!isRecord(value)) continue;
    const linkTo =
      value.link === true && typeof value.resolved === 'string' ? value.resolved : null;
    const at = key.lastIndexOf('node_modules/');
    const requires = REQUIRE_SECTIONS.flatMap((section) => {
      const names = value[section];
      return isRecord(names) ? Object.keys(names) : [];
    });
    const dependencies =
      linkTo === null ? requires.flatMap((name) => resolve(key, name) ?? []) : [linkTo];
    const installed = key.slice(at + 'node_modules/'.length);
    const named = typeof value.name === 'string' ? value.name : null;
    // An alias (`"lodash": "npm:evil@1"`) installs the package `name` records in the folder
    // the key names: it is that package, or swapping what an alias points at would be free.
    const aliased = linkTo === null && named !== null ? named : installed;
    packages.set(key, {
      name: at < 0 ? (named ?? key) : aliased,
      own:
        at < 0
          ? { name: named, folder: key }
          : linkTo === null
            ? null
            : { name: installed, folder: linkTo },
      dependencies,
      installScript: value.hasInstallScript === true,
    });
  }
  const importers = new Map([...children].filter(([folder]) => !folder.includes('node_modules')));
  return { ok: true, lockfile: { packages, importers } };
}
