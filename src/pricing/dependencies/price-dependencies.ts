import { compareStrings } from '../../analysis/graph/module-graph.js';
import { baseName, folderOf } from '../../analysis/repository-paths.js';
import type { CostItem, DependencyAddition } from '../../model/cost.js';
import type { Policy } from '../../model/policy.js';
import { hasLockfiles, lockfileReaderOf } from '../lockfiles.js';
import type { PathRules } from '../path-rules.js';
import { counted, type PricedPart, roundPoints } from '../points.js';
import type { PricedFile, PricedSide } from '../priced-files.js';
import { goMod } from './go-mod.js';
import {
  broughtBy,
  type InstalledPackages,
  installedNames,
  type LockfileChange,
  lockfileFor,
  runtimeNames,
  unexplainedGain,
} from './installed-packages.js';
import type { DeclaredDependencies, DependencyScope, ManifestReader } from './manifest-reading.js';
import { mavenPom } from './maven-pom.js';
import {
  npmManifest,
  respecifiedNames,
  swappedNames,
  uninstalledPeers,
  unrecordedSpecs,
} from './npm-manifest.js';
import { checkedOwnPackages } from './own-packages.js';
import { pyprojectToml, requirementsTxt } from './python-manifests.js';

const READERS: readonly ManifestReader[] = [
  npmManifest,
  requirementsTxt,
  pyprojectToml,
  goMod,
  mavenPom,
];

/** Whether a path is a manifest whose dependencies are priced (by its file name). */
export function isManifest(path: string): boolean {
  return READERS.some((reader) => reader.reads(path));
}

/**
 * The dependencies category. A new dependency is a name a manifest (package.json,
 * requirements*.txt, pyproject.toml, go.mod, pom.xml; not ignored) declares at head and not in
 * its base version (the old path's for a moved manifest, none for a new one), or declares at
 * runtime where the base declared it for development. A removed dependency costs and earns
 * nothing. Each new one is priced:
 *   own_kloc × per_kloc + per_transitive_package × packages + install_script (if any),
 * where own_kloc is 0 (a package's own size is unknown offline, and lockfiles record no size:
 * one note says so); `packages` comes from the diff of the lockfile of the manifest's
 * ecosystem (installed-packages.ts) and is 1 (the package itself, the least it can be) when
 * no changed lockfile tells: always for Maven (DependencyAddition.transitivePackages is then
 * null). A development
 * dependency is multiplied by test_code_weight, and a manifest under paths.tests or
 * paths.generated (a fixture's) by that path's weight. Items are repository-wide (path null),
 * in manifest path order, then name order. A manifest that cannot be read is a note (its
 * lines are still priced in `loc`), never a throw.
 *
 * Then, one item per changed lockfile AUREUS reads (its path) for the packages it gains that no new
 * dependency explains: per_transitive_package × packages + install_script (if one of them runs
 * one), times the lockfile's path weight.
 */
export function priceDependencies(
  files: readonly PricedFile[],
  policy: Policy,
  rules: PathRules,
  headLockfiles: readonly string[] = [],
): PricedPart & {
  readonly dependencies: readonly DependencyAddition[];
  readonly unmeasured: readonly string[];
} {
  const notes: string[] = [];
  const unmeasured: string[] = [];
  const lockfiles = readLockfileChanges(files, notes, unmeasured);
  const dependencies: DependencyAddition[] = [];
  const items: CostItem[] = [];
  for (const file of files) {
    const reader = READERS.find((candidate) => candidate.reads(file.path));
    if (reader === undefined || file.head === null) continue;
    const head = declared(reader, file.head, file.path, notes);
    if (head === null) continue;
    const base =
      file.base === null ? new Map() : (declared(reader, file.base, file.path, notes) ?? new Map());
    // A dependency moved from development to runtime ships to users for the first time.
    const moved = (name: string, scope: DependencyScope) =>
      scope === 'runtime' && base.get(name) === 'development';
    const swapped = new Set(
      reader.ecosystem === 'npm' && file.base !== null
        ? swappedNames(file.base.version.text ?? '', file.head.version.text ?? '')
        : [],
    );
    const added = [...head, ...[...swapped].filter((name) => !head.has(name)).map(runtime)]
      .filter(([name, scope]) => !base.has(name) || moved(name, scope) || swapped.has(name))
      .sort(([a], [b]) => compareStrings(a, b));
    const lockfile = lockfileFor(file.path, reader.ecosystem, lockfiles);
    const untold: string[] = [];
    for (const [name, scope] of added) {
      const known =
        lockfile !== undefined && moved(name, scope)
          ? runtimeNames(lockfile, file.path, runtimeOf(base))
          : undefined;
      const brought = lockfile === undefined ? null : broughtBy(lockfile, file.path, name, known);
      if (brought === null) untold.push(name);
      const weight =
        (scope === 'development' ? policy.pricing.test_code_weight : 1) * rules.weightOf(file.path);
      const addition = priced(name, file.path, brought, weight, policy);
      dependencies.push(addition);
      items.push({
        category: 'dependencies',
        points: addition.points,
        path: null,
        detail: detailOf(addition, moved(name, scope) ? 'moved' : scope),
      });
    }
    if (untold.length > 0) notes.push(untoldNote(file.path, reader, untold));
    const kept = reader.ecosystem === 'npm' ? keptLockfile(file.path, headLockfiles) : undefined;
    const peers =
      kept === undefined ? new Set() : uninstalledPeers(file.head.version.text ?? '', kept);
    // A dependency whose spec changed asks for another version, or another package through an
    // alias: a lockfile the change leaves as it was cannot install it, nor can npm's lockfile
    // edited elsewhere whose record of the manifest still holds the old spec.
    const headText = file.head.version.text ?? '';
    const changed =
      kept === undefined || file.base === null
        ? []
        : respecifiedNames(file.base.version.text ?? '', headText);
    const respecified =
      lockfile === undefined
        ? changed
        : npmUnrecorded(file.path, headText, lockfile.path, files, changed);
    const unlocked = [...new Set([...untold, ...respecified])].filter((name) => !peers.has(name));
    if (kept !== undefined && unlocked.length > 0) {
      unmeasured.push(staleLockfileNote(file.path, kept, unlocked));
    }
  }
  if (dependencies.length > 0) {
    notes.push(
      'The own size of a new dependency is unknown offline (no lockfile records it): priced as 0 kloc.',
    );
  }
  for (const lockfile of lockfiles) items.push(...gainItems(lockfile, policy, rules));
  return { items, notes, dependencies, unmeasured };
}

function runtime(name: string): [string, DependencyScope] {
  return [name, 'runtime'];
}

function declared(
  reader: ManifestReader,
  side: PricedSide,
  path: string,
  notes: string[],
): DeclaredDependencies | null {
  const { text, kind } = side.version;
  const reading = text === undefined ? null : reader.read(text, path);
  if (reading?.ok === true) return reading.dependencies;
  const why = reading === null ? `it is a ${kind} file` : reading.problem;
  notes.push(
    `${side.version.path}: its dependencies are not read (${why}); its lines are priced as text.`,
  );
  return null;
}

function priced(
  name: string,
  manifest: string,
  brought: { readonly packages: number; readonly installScript: boolean } | null,
  weight: number,
  policy: Policy,
): DependencyAddition {
  const {
    per_kloc: perKloc,
    per_transitive_package: perPackage,
    install_script: script,
  } = policy.pricing.dependency;
  const ownKloc = 0;
  const installScript = brought?.installScript ?? false;
  const raw =
    ownKloc * perKloc + perPackage * (brought?.packages ?? 1) + (installScript ? script : 0);
  return {
    name,
    manifest,
    transitivePackages: brought?.packages ?? null,
    installScript,
    points: roundPoints(raw * weight),
  };
}

const KINDS = {
  runtime: 'new dependency',
  development: 'new dev dependency',
  moved: 'dependency moved from dev to runtime',
};

function detailOf(addition: DependencyAddition, scope: keyof typeof KINDS): string {
  const kind = KINDS[scope];
  const packages =
    addition.transitivePackages === null
      ? '1 package, no lockfile tells more'
      : counted(addition.transitivePackages, 'new package');
  const script = addition.installScript ? ', runs an install script' : '';
  return `${kind} ${addition.name} in ${addition.manifest} (${packages}${script})`;
}

function runtimeOf(declared: DeclaredDependencies): string[] {
  return [...declared].flatMap(([name, scope]) => (scope === 'runtime' ? [name] : []));
}

function untoldNote(path: string, reader: ManifestReader, names: readonly string[]): string {
  const why = hasLockfiles(reader.ecosystem)
    ? `no changed ${reader.ecosystem} lockfile records`
    : `${reader.ecosystem} dependencies are priced as direct only, no lockfile is read for`;
  return `${path}: ${why} ${names.join(', ')}: each counts as 1 package.`;
}

/**
 * The npm lockfile the head keeps for a manifest, changed or not. A new dependency it does not
 * install was added to the manifest alone: `npm ci` refuses such a tree and `npm install`
 * resolves it anew, so what it brings is unknown, and pricing it as the one package it
 * names at least would let a manifest edit that leaves the lockfile as it is buy a dependency of
 * hundreds of packages for one. A name declared only as a peer dependency the lockfile's tool
 * does not install is the consumer's to install (npm-manifest.ts uninstalledPeers). Only npm's pairs are judged so: a Python project may keep a
 * requirements file beside a lockfile of another tool, and a Go module replaced by a local
 * folder needs no go.sum line.
 */
/** unrecordedSpecs for npm's own lockfiles; other lockfiles record no manifest: none. */
function npmUnrecorded(
  manifest: string,
  text: string,
  lockfile: string,
  files: readonly PricedFile[],
  names: readonly string[],
): string[] {
  if (!/^(package-lock|npm-shrinkwrap)\.json$/.test(baseName(lockfile))) return [];
  const lockText = files.find((file) => file.path === lockfile)?.head?.version.text ?? '';
  const lockFolder = folderOf(lockfile);
  const folder = folderOf(manifest).slice(lockFolder === '' ? 0 : lockFolder.length + 1);
  return unrecordedSpecs(text, lockText, folder, names);
}

function keptLockfile(manifest: string, headLockfiles: readonly string[]): string | undefined {
  const npm = headLockfiles.flatMap((path) =>
    lockfileReaderOf(path)?.ecosystem === 'npm' ? [{ path, ecosystem: 'npm' as const }] : [],
  );
  return lockfileFor(manifest, 'npm', npm)?.path;
}

function staleLockfileNote(manifest: string, lockfile: string, names: readonly string[]): string {
  return `${manifest}: ${lockfile}, the lockfile the repository keeps for it, does not install ${names.join(', ')} as the manifest asks, so the packages ${names.length === 1 ? 'it brings' : 'they bring'} are unknown. To resolve, run the package manager's install (\`npm install\`, \`pnpm install\`, \`yarn\`, \`bun install\`) and commit the lockfile it writes.`;
}

/**
 * What a lockfile installs beyond its new dependencies, priced in the same unit: a lockfile
 * edited alone installs as much as a new dependency would, and must not be a way around it.
 */
function gainItems(lockfile: LockfileChange, policy: Policy, rules: PathRules): CostItem[] {
  const { packages, installScript } = unexplainedGain(lockfile);
  if (packages === 0) return [];
  const { per_transitive_package: perPackage, install_script: script } = policy.pricing.dependency;
  const raw = perPackage * packages + (installScript ? script : 0);
  const runs = installScript ? ', one runs an install script' : '';
  return [
    {
      category: 'dependencies',
      points: roundPoints(raw * rules.weightOf(lockfile.path)),
      path: lockfile.path,
      detail: `${lockfile.path} gains ${counted(packages, 'package')} that no new dependency pulls in${runs}`,
    },
  ];
}

/**
 * The lockfiles AUREUS reads that the change adds or modifies, both versions read. A head that
 * cannot be read leaves the lockfile out and is `unmeasured`: the change is incomplete, never
 * a pass, since a lockfile this reader refuses and the package manager accepts (an older
 * format, YAML aliases) would otherwise price each new dependency as 1 package. A head over
 * the read limit is unmeasured-files.ts's. A base that cannot be read counts as empty, so
 * every package it holds is new: a note. The head's own packages are checked against the
 * change's manifests (own-packages.ts).
 */
function readLockfileChanges(
  files: readonly PricedFile[],
  notes: string[],
  unmeasured: string[],
): LockfileChange[] {
  const changes: LockfileChange[] = [];
  for (const { path, base, head } of files) {
    const reader = lockfileReaderOf(path);
    if (reader === undefined || head === null) continue;
    const read = (side: PricedSide, which: string): InstalledPackages | null => {
      const { text, kind } = side.version;
      const reading = text === undefined ? null : reader.read(text);
      if (reading?.ok === true) return reading.lockfile;
      const why = reading === null ? `is a ${kind} file` : reading.problem;
      notes.push(`${path} (${which}): not read as a lockfile (${why}).`);
      return null;
    };
    const headLock = read(head, 'head');
    if (headLock === null) {
      if (head.version.kind !== 'too-large') unmeasured.push(unreadableLockfileNote(path));
      continue;
    }
    const empty: InstalledPackages = { packages: new Map(), importers: new Map() };
    const baseLock = base === null ? empty : (read(base, 'base') ?? empty);
    changes.push({
      path,
      ecosystem: reader.ecosystem,
      head: checkedOwnPackages(path, reader.ecosystem, headLock, baseLock, files, notes),
      base: baseLock,
      baseNames: installedNames(baseLock),
      claimed: new Set(),
    });
  }
  return changes;
}

function unreadableLockfileNote(path: string): string {
  return `${path}: a lockfile AUREUS cannot read (the note above says why), so the packages it installs are unknown. To resolve, let the package manager write it again in its current format (for npm 7 or later, \`npm install\`), or add it to paths.ignore in the base policy (each new dependency then counts as 1 package).`;
}
