import { parse } from 'yaml';
import { isRecord } from '../../model/json.js';
import {
  type DeclaredDependency,
  type DeclaredScope,
  type ManifestReader,
  manifestFacts,
  stringsOf,
} from './manifest-facts.js';

const SECTIONS: readonly (readonly [string, DeclaredScope])[] = [
  ['dependencies', 'runtime'],
  ['optionalDependencies', 'runtime'],
  ['peerDependencies', 'peer'],
  ['devDependencies', 'development'],
];

/** The fields through which a package hands code to other packages. */
const LIBRARY_FIELDS = ['exports', 'main', 'module', 'types', 'typings'] as const;

/** What `npm init` writes as the test script: it means "no tests". */
const PLACEHOLDER_TEST = /no test specified/;

/** package.json: name, dependencies by section, bin, library fields, workspaces, scripts.test. */
export const packageJson: ManifestReader = {
  ecosystem: 'npm',
  reads: (fileName) => fileName === 'package.json',
  read(text) {
    const manifest = parseJson(text);
    if (manifest === undefined) return null;
    const dependencies: DeclaredDependency[] = [];
    for (const [section, scope] of SECTIONS) {
      const names = manifest[section];
      if (isRecord(names))
        for (const name of Object.keys(names)) dependencies.push({ name, scope });
    }
    const name = typeof manifest.name === 'string' ? manifest.name : null;
    const bin = manifest.bin;
    const executables =
      typeof bin === 'string' ? [`bin "${name ?? bin}"`] : isRecord(bin) ? binNames(bin) : [];
    const workspaces = isRecord(manifest.workspaces)
      ? stringsOf(manifest.workspaces.packages)
      : stringsOf(manifest.workspaces);
    const scripts = isRecord(manifest.scripts) ? manifest.scripts : {};
    const test = typeof scripts.test === 'string' ? scripts.test.trim() : '';
    return manifestFacts({
      name,
      dependencies,
      executables,
      libraryEntries: LIBRARY_FIELDS.filter((field) => manifest[field] !== undefined),
      workspaces,
      testScript: test === '' || PLACEHOLDER_TEST.test(test) ? null : test,
    });
  },
};

/** pnpm-workspace.yaml: its `packages` globs. */
export const pnpmWorkspace: ManifestReader = {
  ecosystem: 'npm',
  reads: (fileName) => fileName === 'pnpm-workspace.yaml',
  read(text) {
    let document: unknown;
    try {
      document = parse(text);
    } catch {
      return null;
    }
    return manifestFacts({ workspaces: isRecord(document) ? stringsOf(document.packages) : [] });
  },
};

/** lerna.json: its `packages` globs, `packages/*` when it names none (Lerna's default). */
export const lernaJson: ManifestReader = {
  ecosystem: 'npm',
  reads: (fileName) => fileName === 'lerna.json',
  read(text) {
    const manifest = parseJson(text);
    if (manifest === undefined) return null;
    const packages = stringsOf(manifest.packages);
    return manifestFacts({ workspaces: packages.length > 0 ? packages : ['packages/*'] });
  },
};

function binNames(bin: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(bin).map((command) => `bin "${command}"`);
}

function parseJson(text: string): Readonly<Record<string, unknown>> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
