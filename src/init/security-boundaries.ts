import { folderOf } from '../analysis/repository-paths.js';
import type { Policy } from '../model/policy.js';
import type { Surface } from '../pricing/security-surfaces.js';
import type { AnalysisSummary } from './analysis-summary.js';
import type { Inferred, Maturity } from './project-intelligence.js';
import { listed, plural } from './wording.js';

/**
 * A surface no product file touches yet is a boundary the project has not crossed: the first
 * process spawn in a library, the first network call in a parser. Such a change costs this many
 * times the design's weight, so it stands out in review. Surfaces already touched keep the
 * design's weight: one more file writer in a CLI that writes files is ordinary.
 */
export const UNTOUCHED_SURFACE_FACTOR = 2;

/**
 * Surfaces whose code guards identities or secrets: the builder agent may not change it alone.
 * Crypto is left out: its evidence (a hash import) cannot tell a signature from a cache key.
 */
const GUARDED: readonly Surface[] = ['auth', 'env_secrets'];

/** More guarded folders than this is guarded code everywhere: protecting it all would stop the builder. */
export const MAX_PROTECTED_FOLDERS = 20;

export interface SecurityBoundaries {
  /** Weights per surface; null for a greenfield project, which keeps the design's. */
  readonly weights: ReadonlyMap<Surface, Inferred<number>> | null;
  /** `permissions.protected_paths`; null when no product file touches a guarded surface. */
  readonly protectedPaths: Inferred<readonly string[]> | null;
}

/** The security boundaries the current code draws: surface weights and protected folders. */
export function securityBoundaries(
  summary: AnalysisSummary,
  maturity: Maturity,
  design: Policy,
): SecurityBoundaries {
  const filesOf = (surface: Surface) =>
    summary.surfaces.filter((entry) => entry.surface === surface).map((entry) => entry.path);
  const weights = new Map<Surface, Inferred<number>>();
  for (const [surface, weight] of Object.entries(design.pricing.security)) {
    if (!isSurface(surface, design)) continue;
    const files = filesOf(surface);
    weights.set(
      surface,
      files.length === 0
        ? {
            value: weight * UNTOUCHED_SURFACE_FACTOR,
            reason: `no core file touches it today: a first touch crosses a new boundary, so it costs ${UNTOUCHED_SURFACE_FACTOR}× the design's ${weight}`,
          }
        : {
            value: weight,
            reason: `design weight; ${plural(files.length, 'core file')} ${files.length === 1 ? 'touches' : 'touch'} it today, e.g. ${files[0]}`,
          },
    );
  }
  const guarded = GUARDED.flatMap(filesOf);
  const folders = [
    ...new Set(guarded.map((path) => (folderOf(path) === '' ? path : `${folderOf(path)}/**`))),
  ].sort();
  const defaults = design.permissions.protected_paths;
  const protectedPaths: Inferred<readonly string[]> | null =
    guarded.length === 0
      ? null
      : folders.length > MAX_PROTECTED_FOLDERS
        ? {
            value: defaults,
            reason: `auth or secrets code spreads over ${plural(folders.length, 'folder')}: too wide to protect, review the builder's patches instead`,
          }
        : {
            value: [...new Set([...defaults, ...folders])],
            reason: `the design's list, plus where auth or secrets are handled: ${listed(folders, 3)}`,
          };
  return { weights: maturity === 'greenfield' ? null : weights, protectedPaths };
}

function isSurface(key: string, design: Policy): key is Surface {
  return Object.hasOwn(design.pricing.security, key);
}
