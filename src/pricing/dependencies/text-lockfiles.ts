import type { InstalledPackage, LockfileReading } from './installed-packages.js';

/**
 * `go.sum`: one line per module version, `module version hash`. A `version/go.mod` line is
 * the hash of a module's go.mod alone, which Go reads to resolve versions but never installs:
 * it is not an installed package. go.sum records no dependency graph, so each module brings
 * only itself; what a new requirement pulls in is priced on go.sum's own item.
 */
export function readGoSum(text: string): LockfileReading {
  const packages = new Map<string, InstalledPackage>();
  const root = new Map<string, string>();
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    const [module, version, hash] = line.trim().split(/\s+/);
    if (module === undefined || version === undefined || hash === undefined) {
      return { ok: false, problem: `line ${index + 1} is not \`module version hash\`` };
    }
    if (version.endsWith('/go.mod')) continue;
    const key = `${module} ${version}`;
    packages.set(key, { name: module, own: null, dependencies: [], installScript: false });
    root.set(module, key);
  }
  return { ok: true, lockfile: { packages, importers: new Map([['', root]]) } };
}

/**
 * `Gemfile.lock`: sections at the margin (`GEM`, `GIT`, `PATH`, `DEPENDENCIES`, …); under a
 * source's `specs:`, a gem at four spaces (`name (version[-platform])`) and what it needs at six.
 * A gem is keyed by name (Bundler installs one version; platform variants are one gem). `PATH`
 * gems are the project's own, in the folder of their `remote:`; `DEPENDENCIES` lists what the
 * Gemfile declares. Gems record no install scripts (native extensions build from their gemspec, which the lockfile omits).
 */
export function readGemfileLock(text: string): LockfileReading {
  const needs = new Map<string, string[]>();
  // An own gem's folder, relative to the lockfile's.
  const own = new Map<string, string>();
  let remote = '';
  const declared: string[] = [];
  let section = '';
  let gem = '';
  for (const line of text.split(/\r?\n/)) {
    const name = /^\s*([^\s(!]+)/.exec(line)?.[1] ?? '';
    const indent = line.length - line.trimStart().length;
    if (indent === 0 && line.trim() !== '') [section, gem, remote] = [line.trim(), '', ''];
    else if (section === 'DEPENDENCIES' && indent === 2) declared.push(name);
    else if (indent === 2 && line.trim().startsWith('remote:'))
      remote = line.trim().slice('remote:'.length).trim();
    else if (['GEM', 'GIT', 'PATH'].includes(section) && indent === 4) {
      gem = name;
      if (!needs.has(gem)) needs.set(gem, []);
      if (section === 'PATH') own.set(gem, remote);
    } else if (indent === 6 && gem !== '') needs.get(gem)?.push(name);
  }
  if (!/^(GEM|GIT|PATH)$/m.test(text)) {
    return { ok: false, problem: 'no GEM, GIT or PATH section' };
  }
  const packages = new Map<string, InstalledPackage>();
  for (const [name, requires] of needs) {
    const dependencies = requires.filter((required) => needs.has(required));
    const folder = own.get(name);
    packages.set(name, {
      name,
      own: folder === undefined ? null : { name, folder },
      dependencies,
      installScript: false,
    });
  }
  const root = new Map(declared.filter((name) => needs.has(name)).map((name) => [name, name]));
  return { ok: true, lockfile: { packages, importers: new Map([['', root]]) } };
}
