import type { FileFacts } from '../model/facts.js';
import type { Finding } from '../model/finding.js';
import type { ForbiddenPatternId } from '../model/policy.js';
import { surfacesOf } from '../pricing/price-security.js';
import type { Surface } from '../pricing/security-surfaces.js';

/** What the current code already does that the generated policy must take into account. */
export interface AnalysisSummary {
  /**
   * Today's critic findings (by the design's policy), one entry per finding, at the severity
   * the rule gave it (a rule may report some places as warnings only, as unparsable_file does
   * test files).
   */
  readonly findings: readonly {
    readonly ruleId: ForbiddenPatternId;
    readonly path: string | null;
    readonly severity: Finding['severity'];
    readonly measured: number | null;
  }[];
  /** The sensitive surfaces core files touch, one entry per file and surface. */
  readonly surfaces: readonly { readonly surface: Surface; readonly path: string }[];
}

/**
 * Boils the analysis down to what generatePolicy reads. Surfaces count in core files only: a
 * test or a benchmark that spawns the program it measures is not the shipped security surface.
 */
export function summarizeAnalysis(
  facts: ReadonlyMap<string, FileFacts>,
  findings: readonly Finding[],
  isCore: (path: string) => boolean,
): AnalysisSummary {
  const surfaces = [...facts]
    .filter(([path]) => isCore(path))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([path, fileFacts]) =>
      [...surfacesOf(fileFacts).keys()].map((surface) => ({ surface, path })),
    );
  return {
    findings: findings.map((finding) => ({
      ruleId: finding.ruleId,
      path: finding.location?.path ?? null,
      severity: finding.severity,
      measured: finding.measured,
    })),
    surfaces,
  };
}
