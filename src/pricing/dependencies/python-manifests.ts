import { parse } from 'smol-toml';
import { baseName } from '../../analysis/repository-paths.js';
import { field, recordOf, stringsOf } from '../../model/json.js';
import {
  type DependencyScope,
  declare,
  type ManifestReader,
  problemOf,
} from './manifest-reading.js';

/**
 * `requirements*.txt`: one requirement per line; comments (`#` at the start or after a
 * space), blank lines and option lines (`-r other.txt`, `-e .`, `--index-url …`) are skipped,
 * and a backslash continues a line. A file whose name says dev/test/lint/docs
 * (`requirements-dev.txt`, `requirements_test.txt`) declares development dependencies.
 */
export const requirementsTxt: ManifestReader = {
  ecosystem: 'python',
  reads: (path) => /^requirements.*\.txt$/i.test(baseName(path)),
  read(text, path) {
    const scope: DependencyScope = /[-_.](dev|test|tests|testing|lint|docs)[-_.]/i.test(
      baseName(path),
    )
      ? 'development'
      : 'runtime';
    const dependencies = new Map<string, DependencyScope>();
    for (const line of text.replace(/\\\r?\n/g, ' ').split(/\r?\n/)) {
      const requirement = line.replace(/(^|\s)#.*$/, '').trim();
      if (requirement === '' || requirement.startsWith('-')) continue;
      declare(dependencies, requirementName(requirement), scope);
    }
    return { ok: true, dependencies };
  },
};

/**
 * `pyproject.toml`, parsed as TOML: PEP 621 `[project] dependencies` and
 * `optional-dependencies` (runtime: extras ship to the users who ask for them), PEP 735
 * `[dependency-groups]` (development), Poetry's `[tool.poetry.dependencies]` (runtime, the
 * `python` entry is the interpreter, not a dependency) and `[tool.poetry.dev-dependencies]`,
 * `[tool.poetry.group.<g>.dependencies]` (development).
 */
export const pyprojectToml: ManifestReader = {
  ecosystem: 'python',
  reads: (path) => baseName(path) === 'pyproject.toml',
  read(text) {
    let document: unknown;
    try {
      document = parse(text);
    } catch (error) {
      return { ok: false, problem: `not valid TOML (${problemOf(error)})` };
    }
    const dependencies = new Map<string, DependencyScope>();
    const project = field(document, 'project');
    for (const entry of stringsOf(field(project, 'dependencies'))) {
      declare(dependencies, requirementName(entry), 'runtime');
    }
    for (const extra of Object.values(recordOf(field(project, 'optional-dependencies')))) {
      for (const entry of stringsOf(extra))
        declare(dependencies, requirementName(entry), 'runtime');
    }
    for (const group of Object.values(recordOf(field(document, 'dependency-groups')))) {
      for (const entry of stringsOf(group))
        declare(dependencies, requirementName(entry), 'development');
    }
    const poetry = field(document, 'tool', 'poetry');
    for (const name of Object.keys(recordOf(field(poetry, 'dependencies')))) {
      if (name !== 'python') declare(dependencies, normalizedName(name), 'runtime');
    }
    const groups = Object.values(recordOf(field(poetry, 'group'))).map((group) =>
      field(group, 'dependencies'),
    );
    for (const table of [field(poetry, 'dev-dependencies'), ...groups]) {
      for (const name of Object.keys(recordOf(table)))
        declare(dependencies, normalizedName(name), 'development');
    }
    return { ok: true, dependencies };
  },
};

/** The distribution name a PEP 508 requirement starts with, normalized; '' when none. */
function requirementName(requirement: string): string {
  const match = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)/.exec(requirement);
  return match?.[1] === undefined ? '' : normalizedName(match[1]);
}

/** PEP 503: case-insensitive, runs of `-`, `_` and `.` are one `-` (`Foo_Bar` is `foo-bar`). */
export function normalizedName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}
