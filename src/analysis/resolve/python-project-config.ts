import { parse as parseToml } from 'smol-toml';
import { field, recordOf, stringsOf } from '../../model/json.js';

/** `[package name, folder]` pairs; the name `""` for a folder that is a source root. */
export type NamedFolders = readonly (readonly [string, string])[];

/** What a pyproject.toml or setup.cfg names, or why it cannot be read as what it claims to be. */
export type ProjectConfig = { readonly named: NamedFolders } | { readonly problem: string };

/** The folders a `pyproject.toml` (`.toml`) or `setup.cfg` names, relative to its own folder. */
export function readProjectConfig(path: string, text: string): ProjectConfig {
  return path.endsWith('.toml') ? pyprojectFolders(text) : setupCfgFolders(text);
}

function pyprojectFolders(text: string): ProjectConfig {
  let toml: unknown;
  try {
    toml = parseToml(text);
  } catch (error) {
    const why = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    // pip refuses the project too; the roots it would name are unknown, not absent.
    return { problem: unparsable('TOML', why) };
  }
  const setuptools = field(toml, 'tool', 'setuptools');
  const packageDir = field(setuptools, 'package-dir');
  return {
    named: [
      ...strings(field(setuptools, 'packages', 'find', 'where')).map(
        (where) => ['', where] as const,
      ),
      ...Object.entries(recordOf(packageDir)).flatMap(([pkg, folder]) =>
        strings(folder).map((at) => [pkg, at] as const),
      ),
      ...list(field(toml, 'tool', 'poetry', 'packages')).map((entry) => {
        const [from] = strings(field(entry, 'from'));
        return ['', from ?? ''] as const;
      }),
      ...strings(field(toml, 'tool', 'hatch', 'build', 'targets', 'wheel', 'packages')).map(
        (pkg) => ['', pkg.includes('/') ? pkg.slice(0, pkg.lastIndexOf('/')) : ''] as const,
      ),
    ],
  };
}

/**
 * setup.cfg, read as setuptools' configparser reads it: sections, `key = value`, indented
 * continuations. What configparser refuses (a line before any section, a line that is neither
 * a section, an entry nor a continuation of one) is a problem, as it is to setuptools.
 */
function setupCfgFolders(text: string): ProjectConfig {
  const values = new Map<string, string>();
  let section = '';
  let key = '';
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (/^\s*([#;]|$)/.test(line)) continue;
    const trimmed = line.trim();
    const header = /^\[(.+)\]$/.exec(trimmed);
    const entry = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(trimmed);
    const where = `line ${index + 1}`;
    if (/^\s/.test(line) && key !== '') values.set(key, `${values.get(key) ?? ''}\n${trimmed}`);
    else if (header !== null) {
      section = header[1]?.trim() ?? '';
      key = '';
    } else if (section === '')
      return { problem: unparsable('INI', `${where} comes before any [section]`) };
    else if (entry !== null) {
      key = `${section}.${entry[1]?.toLowerCase()}`;
      values.set(key, entry[2] ?? '');
    } else
      return { problem: unparsable('INI', `${where} is neither a [section] nor \`key = value\``) };
  }
  const lines = (name: string) =>
    (values.get(name) ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
  return {
    named: [
      ...lines('options.packages.find.where').map((where) => ['', where] as const),
      ...lines('options.package_dir').flatMap((line) => {
        const [pkg, folder] = line.split('=').map((part) => part.trim());
        return folder === undefined ? [] : [[pkg ?? '', folder] as const];
      }),
    ],
  };
}

function unparsable(format: string, why: string): string {
  return `it is not valid ${format} (${why}), so the Python source roots it names are unknown. To resolve, fix its syntax so that pip can read it, or remove the file`;
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function strings(value: unknown): string[] {
  return typeof value === 'string' ? [value] : stringsOf(value);
}
