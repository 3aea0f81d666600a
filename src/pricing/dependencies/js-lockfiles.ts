import { type ParseError, parse as parseJsonc } from 'jsonc-parser';
import { parse as parseYaml } from 'yaml';
import { joinPath } from '../../analysis/repository-paths.js';
import { isRecord, recordOf } from '../../model/json.js';
import { type InstalledPackage, type LockfileReading, normalFolder } from './installed-packages.js';
import { problemOf } from './manifest-reading.js';

const IMPORTER_SECTIONS = ['dependencies', 'devDependencies', 'optionalDependencies'];
/** What a package needs installed; peers too (pnpm, bun and npm ≥ 7 install them). */
const PACKAGE_SECTIONS = ['dependencies', 'optionalDependencies', 'peerDependencies'];

/**
 * `pnpm-lock.yaml` v6 (pnpm 8) and v9 (pnpm 9, 10). Each importer (a workspace folder) maps its
 * dependencies to versions; a package's key is `name@version` plus its peers' suffix, under
 * `/` in v6. v9 splits what a package is (`packages`: `requiresBuild`) from how it is installed
 * (`snapshots`: its resolved dependencies). `link:` versions are the workspace's own packages.
 * `hasBin` is not an install script (bins are linked, nothing runs). v5 (pnpm ≤ 7) is a problem.
 */
export function readPnpmLockfile(text: string): LockfileReading {
  const document = parsed(text, 'YAML', parseYaml);
  if (typeof document === 'string') return { ok: false, problem: document };
  const major = Number.parseFloat(String(document.lockfileVersion));
  if (!(major >= 6)) {
    return {
      ok: false,
      problem: `lockfile version ${String(document.lockfileVersion)} (pnpm ≥ 8 writes 6 or 9)`,
    };
  }
  const v9 = major >= 9;
  const entries = recordOf(v9 ? document.snapshots : document.packages);
  const infos = recordOf(document.packages);
  const packages = new Map<string, InstalledPackage>();
  const keyOf = (name: string, version: string, folder: string): string => {
    if (version.startsWith('link:'))
      return `link:${normalFolder(joinPath(folder, version.slice(5)))}`;
    const exact = v9 ? `${name}@${version}` : `/${name}@${version}`;
    return exact in entries ? exact : version;
  };
  for (const [key, value] of Object.entries(entries)) {
    const plain = key.replace(/\(.*$/, '');
    const info = recordOf(v9 ? infos[plain] : value);
    packages.set(key, {
      name: plain.replace(/^\//, '').replace(/(.)@[^@]*$/, '$1'),
      own: null,
      dependencies: versions(value, PACKAGE_SECTIONS).map(([name, to]) => keyOf(name, to, '')),
      installScript: info.requiresBuild === true,
    });
  }
  const importers = new Map<string, Map<string, string>>();
  const listed = isRecord(document.importers) ? document.importers : { '.': document };
  for (const [at, importer] of Object.entries(listed)) {
    const folder = normalFolder(at);
    const resolved = versions(importer, IMPORTER_SECTIONS).map(
      ([name, to]) => [name, keyOf(name, to, folder)] as const,
    );
    importers.set(folder, new Map(resolved));
    packages.set(`link:${folder}`, {
      name: `link:${folder}`,
      own: { name: null, folder },
      dependencies: resolved.map(([, key]) => key),
      installScript: false,
    });
  }
  return { ok: true, lockfile: { packages, importers } };
}

/**
 * `yarn.lock`: berry (yarn ≥ 2, YAML with `__metadata`) or v1 (its own indented format). Each
 * entry is keyed by the descriptors (`name@range`, comma-separated) it resolves, and lists its
 * dependencies as ranges, resolved through those descriptors. Berry records the workspaces
 * (`@workspace:` resolutions, the workspace's own); v1 does not, so the descriptors no
 * package asks for are the root's. Neither records which packages run install scripts (berry's
 * `dependenciesMeta.built` is a project's switch, not a fact about the package).
 */
export function readYarnLockfile(text: string): LockfileReading {
  const berry = /^__metadata:/m.test(text);
  const blocks = berry ? berryBlocks(text) : v1Blocks(text);
  if (typeof blocks === 'string') return { ok: false, problem: blocks };
  const byDescriptor = new Map<string, string>();
  for (const { key, descriptors } of blocks)
    for (const one of descriptors) byDescriptor.set(one, key);
  const packages = new Map<string, InstalledPackage>();
  const importers = new Map<string, Map<string, string>>([['', new Map()]]);
  const asked = new Set<string>();
  for (const { key, requires, workspace } of blocks) {
    const resolved = requires.flatMap((one) => {
      const found = byDescriptor.get(one);
      return found === undefined ? [] : [[nameOf(one), found] as const];
    });
    packages.set(key, {
      name: nameOf(key),
      own: workspace === null ? null : { name: nameOf(key), folder: workspace },
      dependencies: resolved.map(([, found]) => found),
      installScript: false,
    });
    if (workspace !== null) importers.set(workspace, new Map(resolved));
    else for (const one of requires) asked.add(one);
  }
  if (!berry) {
    const root = importers.get('') ?? new Map<string, string>();
    for (const [one, key] of byDescriptor) if (!root.has(nameOf(one))) root.set(nameOf(one), key);
    for (const [one, key] of byDescriptor) if (!asked.has(one)) root.set(nameOf(one), key);
  }
  return { ok: true, lockfile: { packages, importers } };
}

interface YarnBlock {
  readonly key: string;
  readonly descriptors: readonly string[];
  readonly requires: readonly string[];
  /** The folder of a workspace's own package (berry), else null. */
  readonly workspace: string | null;
}

function berryBlocks(text: string): YarnBlock[] | string {
  const document = parsed(text, 'YAML', parseYaml);
  if (typeof document === 'string') return document;
  return Object.entries(document).flatMap(([header, value]) => {
    const resolution = recordOf(value).resolution;
    if (header === '__metadata' || typeof resolution !== 'string') return [];
    const at = resolution.indexOf('@workspace:');
    return [
      {
        key: resolution,
        descriptors: header.split(/,\s*/),
        // Berry lists optional dependencies among `dependencies`; peers are the parent's.
        requires: versions(value, ['dependencies']).map(([name, range]) => `${name}@${range}`),
        workspace: at < 0 ? null : normalFolder(resolution.slice(at + '@workspace:'.length)),
      },
    ];
  });
}

function v1Blocks(text: string): YarnBlock[] | string {
  const blocks: { key: string; descriptors: string[]; requires: string[]; workspace: null }[] = [];
  let section = '';
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const current = blocks.at(-1);
    if (!line.startsWith(' ')) {
      const descriptors = line.replace(/:$/, '').split(/,\s*/).map(unquoted);
      blocks.push({ key: descriptors[0] ?? '', descriptors, requires: [], workspace: null });
    } else if (current === undefined) {
      return `line ${index + 1} is indented before any entry`;
    } else if (!line.startsWith('    ')) {
      const [field = '', value = ''] = pairOf(line);
      section = field.replace(/:$/, '');
      if (field === 'version') current.key = `${nameOf(current.key)}@${unquoted(value)}`;
    } else if (section === 'dependencies' || section === 'optionalDependencies') {
      const [name = '', range = ''] = pairOf(line);
      current.requires.push(`${unquoted(name)}@${unquoted(range)}`);
    }
  }
  return blocks;
}

/**
 * `bun.lock` (bun ≥ 1.2, JSON with trailing commas). `packages` keys are install paths with
 * `/` between names (`is-odd/is-number` is the copy `is-odd` gets), each an array whose first
 * item is `name@version` (`name@workspace:folder` for the workspace's own) and whose object
 * item holds its dependencies and `hasInstallScript`. A name resolves as Node would: the
 * package's own path first, then each path above it.
 */
export function readBunLockfile(text: string): LockfileReading {
  const errors: ParseError[] = [];
  const document: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || !isRecord(document))
    return { ok: false, problem: 'not valid JSON with trailing commas' };
  const entries = recordOf(document.packages);
  const names = new Map<string, string>();
  for (const [key, value] of Object.entries(entries)) {
    const ident = Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '';
    names.set(key, nameOf(ident));
  }
  const resolve = (from: string, name: string): string[] => {
    for (let at = from; ; ) {
      const candidate = at === '' ? name : `${at}/${name}`;
      if (candidate in entries) return [candidate];
      if (at === '') return [];
      const own = names.get(at) ?? at;
      at = at === own ? '' : at.slice(0, -own.length - 1);
    }
  };
  const packages = new Map<string, InstalledPackage>();
  const importers = new Map<string, Map<string, string>>();
  for (const [folder, workspace] of Object.entries(recordOf(document.workspaces))) {
    const name = recordOf(workspace).name;
    const from = folder === '' || typeof name !== 'string' ? '' : name;
    const direct = versions(workspace, [...IMPORTER_SECTIONS, 'peerDependencies']);
    importers.set(
      normalFolder(folder),
      new Map(direct.flatMap(([dep]) => resolve(from, dep).map((key) => [dep, key]))),
    );
  }
  for (const [key, value] of Object.entries(entries)) {
    const items: unknown[] = Array.isArray(value) ? value : [];
    const meta = recordOf(items.find(isRecord));
    const optionalPeers = Array.isArray(meta.optionalPeers) ? meta.optionalPeers : [];
    const requires = versions(meta, PACKAGE_SECTIONS).filter(
      ([name]) => !optionalPeers.includes(name),
    );
    const ident = String(items[0]);
    const at = ident.indexOf('@workspace:');
    const name = names.get(key) ?? key;
    packages.set(key, {
      name,
      own: at < 0 ? null : { name, folder: ident.slice(at + '@workspace:'.length) },
      dependencies: requires.flatMap(([name]) => resolve(key, name)),
      installScript: meta.hasInstallScript === true,
    });
  }
  return { ok: true, lockfile: { packages, importers } };
}

/** The name a `name@version` or `name@range` starts with (a scope's `@` is not the separator). */
function nameOf(spec: string): string {
  const at = spec.indexOf('@', 1);
  return at < 0 ? spec : spec.slice(0, at);
}

/** `[name, version]` pairs of the given sections of an entry, whose values are strings or `{version}`. */
function versions(entry: unknown, sections: readonly string[]): [string, string][] {
  return sections.flatMap((section) =>
    Object.entries(recordOf(recordOf(entry)[section])).flatMap(([name, value]) => {
      const version = isRecord(value) ? value.version : value;
      return typeof version === 'string' ? [[name, version] as [string, string]] : [];
    }),
  );
}

/** `  key "value"` → `[key, "value"]` (a range may hold spaces: `"^1 || ^2"`). */
function pairOf(line: string): string[] {
  return /^\s*(\S+)\s*(.*)$/.exec(line)?.slice(1) ?? [];
}

function unquoted(text: string): string {
  return text.replace(/^"(.*)"$/, '$1');
}

function parsed(
  text: string,
  format: string,
  parse: (text: string) => unknown,
): Record<string, unknown> | string {
  try {
    const document = parse(text);
    return isRecord(document) ? document : `not a ${format} map`;
  } catch (error) {
    return `not valid ${format} (${problemOf(error)})`;
  }
}
