import { detectLanguage } from '../analysis/detect-language.js';
import {
  PYTHON_CONFIG,
  type PythonImports,
  pythonImports,
} from '../analysis/resolve/python-imports.js';
import type { RepositorySource, UnreadableFile } from './repository-source.js';
import { readConfigTexts } from './snapshot-resolution-files.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

export interface PythonResolution {
  readonly imports: PythonImports;
  /**
   * A pyproject.toml or setup.cfg that could not be read, or is no valid TOML or INI: the roots
   * it names are unknown, and imports of the packages there would look external.
   */
  readonly unreadable: readonly UnreadableFile[];
}

/**
 * Python's import resolution for a snapshot: its paths, and the texts of its pyproject.toml and
 * setup.cfg files (read by blob, never through a link), read only when it holds Python files.
 */
export async function readPythonResolution(
  source: RepositorySource,
  snapshot: readonly SnapshotFile[],
): Promise<PythonResolution> {
  const paths = snapshot.map((file) => file.path);
  const hasPython = paths.some((path) => detectLanguage(path) === 'python');
  const wanted = hasPython ? snapshot.filter((file) => PYTHON_CONFIG.test(file.path)) : [];
  const { texts, unreadable } = await readConfigTexts(source, wanted, notText);
  const imports = pythonImports(paths, texts);
  return { imports, unreadable: [...unreadable, ...imports.unparsable] };
}

function notText(kind: string): string {
  return `it is not text (${kind}), so the Python source roots it names are unknown. To resolve, commit it as a UTF-8 text file, or remove it`;
}
