import { parse } from 'smol-toml';
import { isRecord } from '../../model/json.js';
import { pyprojectToml, requirementsTxt } from '../../pricing/dependencies/python-manifests.js';
import { fromScopes, type ManifestReader, manifestFacts } from './manifest-facts.js';

/**
 * pyproject.toml: PEP 621 `[project]` or Poetry's `[tool.poetry]` name and scripts, a build
 * system (the project builds a distribution others install: a library entry), pytest's own
 * table. Dependencies come from the pricing's reader, so both read them alike.
 */
export const pyproject: ManifestReader = {
  ecosystem: 'python',
  reads: (fileName) => fileName === 'pyproject.toml',
  read(text, fileName) {
    let document: unknown;
    try {
      document = parse(text);
    } catch {
      return null;
    }
    const reading = pyprojectToml.read(text, fileName);
    const project = field(document, 'project');
    const tool = field(document, 'tool');
    const poetry = field(tool, 'poetry');
    const name = field(project, 'name') ?? field(poetry, 'name');
    const scripts = [
      ...keys(field(project, 'scripts')),
      ...keys(field(project, 'gui-scripts')),
      ...keys(field(poetry, 'scripts')),
    ];
    const built = field(document, 'build-system') !== undefined;
    return manifestFacts({
      name: typeof name === 'string' ? name : null,
      dependencies: reading.ok ? fromScopes(reading.dependencies) : [],
      executables: scripts.map((script) => `[project.scripts] "${script}"`),
      libraryEntries: built && scripts.length === 0 ? ['[build-system]'] : [],
      testTools: field(tool, 'pytest') === undefined ? [] : ['pytest'],
    });
  },
};

/** requirements*.txt: dependencies only. */
export const requirements: ManifestReader = {
  ecosystem: 'python',
  reads: (fileName) => requirementsTxt.reads(fileName),
  read(text, fileName) {
    const reading = requirementsTxt.read(text, fileName);
    return reading.ok ? manifestFacts({ dependencies: fromScopes(reading.dependencies) }) : null;
  },
};

function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function keys(value: unknown): string[] {
  return isRecord(value) ? Object.keys(value) : [];
}
