import { PYTHON_CONFIG } from '../analysis/resolve/python-imports.js';
import { sameContents } from './same-snapshot.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

/**
 * The files whose contents decide how a snapshot's imports resolve: go.mod and go.work (module
 * paths), pyproject.toml and setup.cfg (Python source roots), and every JSON file, which covers
 * tsconfig/jsconfig (`paths`, `baseUrl`), package.json (`name`, `imports`, `exports`) and the
 * files a tsconfig `extends` under any other name.
 */
const RESOLUTION_INPUT = /(^|\/)go\.(mod|work)$|\.json$/;

function isResolutionInput(path: string): boolean {
  return RESOLUTION_INPUT.test(path) || PYTHON_CONFIG.test(path);
}

/**
 * The head's files with the base's resolution inputs in place of its own, or undefined when the
 * change leaves every resolution input as it was. A change judged only under its own resolution
 * could rename its go.mod module or remap a tsconfig alias so that the imports closing a cycle
 * or crossing a module rule look external, and its findings vanish with them; the head analysed
 * under the base's resolution as well, the worse of the two judges (judge-change.ts).
 */
export function underBaseResolution(
  head: readonly SnapshotFile[],
  base: readonly SnapshotFile[],
): SnapshotFile[] | undefined {
  const baseInputs = new Map(
    base.filter((file) => isResolutionInput(file.path)).map((file) => [file.path, file]),
  );
  const headInputs = head.filter((file) => isResolutionInput(file.path));
  const unchanged =
    headInputs.length === baseInputs.size &&
    headInputs.every((file) => sameContents(file, baseInputs.get(file.path)));
  if (unchanged) return undefined;
  return [...head.filter((file) => !isResolutionInput(file.path)), ...baseInputs.values()];
}
