import { detectLanguage } from '../analysis/detect-language.js';
import {
  PYTHON_CONFIG,
  type PythonImports,
  pythonImports,
} from '../analysis/resolve/python-imports.js';
import type { RepositorySource, UnreadableFile } from './repository-source.js';
import { notReadable } from './snapshot-resolution-files.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

export interface PythonResolution {
  readonly imports: PythonImports;
  /** A pyproject.toml or setup.cfg that could not be read: the roots it names may be missing. */
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
  const texts = new Map<string, string>();
  const unreadable: UnreadableFile[] = [];
  for (const { version, problem } of wanted.length === 0 ? [] : await source.readBlobs(wanted)) {
    if (version.kind === 'text' && version.text !== undefined)
      texts.set(version.path, version.text);
    else {
      const why = problem ?? notReadable(version.kind);
      if (why !== undefined) unreadable.push({ path: version.path, problem: why });
    }
  }
  return { imports: pythonImports(paths, texts), unreadable };
}
