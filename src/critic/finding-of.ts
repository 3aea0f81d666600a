import type { Span } from '../model/facts.js';
import type { Finding, FindingLocation } from '../model/finding.js';
import type { ForbiddenPatternId } from '../model/policy.js';
import { fingerprintOf } from './fingerprint.js';

/** What a rule says about one finding; findingOf adds the rule, severity and fingerprint. */
export interface FindingDraft {
  readonly message: string;
  readonly location: FindingLocation | null;
  readonly symbol: string;
  readonly measured: number | null;
  readonly limit: number | null;
  /** A finding the rule never lets block, whatever the policy says (see Rule). */
  readonly advisory?: boolean;
}

export function findingOf(ruleId: ForbiddenPatternId, draft: FindingDraft): Finding {
  const { advisory = false, ...fields } = draft;
  return {
    ruleId,
    severity: advisory ? 'warn' : 'error',
    ...fields,
    fingerprint: fingerprintOf(ruleId, draft.location?.path ?? '', draft.symbol),
  };
}

export function spanLocation(path: string, span: Span): FindingLocation {
  return { path, startLine: span.start, endLine: span.end };
}

export function lineLocation(path: string, line: number): FindingLocation {
  return { path, startLine: line, endLine: line };
}
