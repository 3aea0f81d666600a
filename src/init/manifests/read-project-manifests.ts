import picomatch from 'picomatch';
import { baseName, folderOf } from '../../analysis/repository-paths.js';
import type { ManifestText } from '../project-survey.js';
import { cargoToml } from './cargo-manifest.js';
import { goMod, goWork } from './go-manifests.js';
import { buildGradle, pomXml, settingsGradle } from './jvm-manifests.js';
import type { DeclaredDependency, Ecosystem, ManifestReader } from './manifest-facts.js';
import { lernaJson, packageJson, pnpmWorkspace } from './npm-manifests.js';
import { pyproject, requirements } from './python-manifests.js';

/** Every manifest `aureus init` reads, in the order a project's name is taken from them. */
const READERS: readonly ManifestReader[] = [
  packageJson,
  pnpmWorkspace,
  lernaJson,
  pyproject,
  requirements,
  cargoToml,
  goMod,
  goWork,
  pomXml,
  settingsGradle,
  buildGradle,
];

export interface Declared extends DeclaredDependency {
  readonly ecosystem: Ecosystem;
}

/** What the manifests say about the whole project; lists are worded as evidence. */
export interface ProjectManifests {
  /** The repository-root manifests that read, in reader order. */
  readonly root: readonly string[];
  /** Manifests whose text did not read as what their name says (left out of everything). */
  readonly unreadable: readonly string[];
  readonly ecosystems: readonly Ecosystem[];
  readonly name: { readonly value: string; readonly source: string } | null;
  /** The root's dependencies and, in a monorepo, its members'. */
  readonly dependencies: readonly Declared[];
  /** `package.json bin "nodemon"`: executables the root manifests declare. */
  readonly executables: readonly string[];
  /** `package.json exports`: what the root manifests export to other code. */
  readonly libraryEntries: readonly string[];
  readonly workspaces: Workspaces | null;
  readonly testScript: string | null;
  readonly testTools: readonly string[];
}

export interface Workspaces {
  /** The manifest that declares them (package.json, pnpm-workspace.yaml, Cargo.toml, …). */
  readonly source: string;
  /** Member folder globs as written, normalized (`packages/*`). */
  readonly patterns: readonly string[];
  /** Folders of the member manifests found. */
  readonly members: readonly string[];
}

/** Whether a tracked file is one the survey should read for `readProjectManifests`. */
export function isManifest(path: string): boolean {
  const name = baseName(path);
  return READERS.some((reader) => reader.reads(name));
}

/**
 * Reads the manifests' texts: the root ones describe the project; a nested one counts only as a
 * workspace member the root declares (an example app under `examples/` is not the project).
 */
export function readProjectManifests(manifests: readonly ManifestText[]): ProjectManifests {
  const unreadable: string[] = [];
  const read = manifests.flatMap(({ path, text }) => {
    const reader = READERS.find((candidate) => candidate.reads(baseName(path)));
    const facts = reader?.read(text, baseName(path)) ?? null;
    if (reader === undefined) return [];
    if (facts === null) unreadable.push(path);
    return facts === null ? [] : [{ path, reader, facts }];
  });
  const rank = (reader: ManifestReader) => READERS.indexOf(reader);
  const root = read
    .filter(({ path }) => !path.includes('/'))
    .sort((a, b) => rank(a.reader) - rank(b.reader));
  const declaring = root.find(({ facts }) => facts.workspaces.length > 0);
  const patterns = (declaring?.facts.workspaces ?? []).flatMap(normalizedPattern);
  const isMember = patterns.length === 0 ? () => false : picomatch(patterns, { dot: true });
  const members = read.filter(({ path }) => path.includes('/') && isMember(folderOf(path)));
  const named = root.find(({ facts }) => facts.name !== null && facts.name !== '');
  const tagged = (entries: typeof read) =>
    entries.flatMap(({ reader, facts }) =>
      facts.dependencies.map((dependency) => ({ ...dependency, ecosystem: reader.ecosystem })),
    );
  const evidence = (list: (facts: (typeof read)[number]['facts']) => readonly string[]) =>
    root.flatMap(({ path, facts }) => list(facts).map((item) => `${path} ${item}`));
  return {
    root: root.map(({ path }) => path),
    unreadable,
    ecosystems: [...new Set(root.map(({ reader }) => reader.ecosystem))],
    name: named?.facts.name ? { value: named.facts.name, source: named.path } : null,
    dependencies: [...tagged(root), ...tagged(members)],
    executables: evidence((facts) => facts.executables),
    libraryEntries: evidence((facts) => facts.libraryEntries),
    workspaces:
      declaring === undefined
        ? null
        : {
            source: declaring.path,
            patterns,
            members: [...new Set(members.map(({ path }) => folderOf(path)))].sort(),
          },
    testScript: root.find(({ facts }) => facts.testScript !== null)?.facts.testScript ?? null,
    testTools: [...new Set(root.flatMap(({ facts }) => facts.testTools))],
  };
}

/** `./packages/*` and `packages/*\/` are `packages/*`; negations (`!packages/x`) are dropped. */
function normalizedPattern(pattern: string): string[] {
  const trimmed = pattern.trim().replace(/^\.\//, '').replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('!') || trimmed.startsWith('/') ? [] : [trimmed];
}
