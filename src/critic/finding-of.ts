import { createHash } from 'node:crypto';
import type { FileFacts, Span } from '../model/facts.js';
import type { Finding, FindingLocation } from '../model/finding.js';
import { pathToBytes } from '../model/path-bytes.js';
import type { ForbiddenPatternId } from '../model/policy.js';
import type { PathTest } from '../policy/glob-matcher.js';
import type { ProjectState } from './rule.js';

/** What a rule says about one finding; findingOf adds the rule, severity and fingerprint. */
export interface FindingDraft {
  readonly message: string;
  readonly location: FindingLocation | null;
  readonly symbol: string;
  readonly measured: number | null;
  readonly limit: number | null;
  /** A finding the rule never lets block, whatever the policy says (see Rule). */
  readonly advisory?: boolean;
  readonly related?: readonly FindingLocation[];
}

export function findingOf(ruleId: ForbiddenPatternId, draft: FindingDraft): Finding {
  const { advisory = false, related = [], ...fields } = draft;
  return {
    ruleId,
    severity: advisory ? 'warn' : 'error',
    ...fields,
    related,
    fingerprint: fingerprintOf(ruleId, draft.location?.path ?? '', draft.symbol),
  };
}

/** A finding that points at a place, not at a figure over a limit. */
export function placeFinding(
  ruleId: ForbiddenPatternId,
  location: FindingLocation,
  symbol: string,
  message: string,
): Finding {
  return findingOf(ruleId, { message, location, symbol, measured: null, limit: null });
}

/** A finding for the whole repository: a figure over a budget, with no place to point at. */
export function budgetFinding(
  ruleId: ForbiddenPatternId,
  message: string,
  measured: number,
  limit: number,
  advisory = false,
): Finding {
  return findingOf(ruleId, {
    message,
    location: null,
    symbol: 'repository',
    measured,
    limit,
    advisory,
  });
}

/** A rule's findings file by file, over the files `judged` keeps (the core, product code…). */
export function findingsPerFile(
  project: ProjectState,
  judged: PathTest,
  findingsIn: (path: string, facts: FileFacts) => Finding[],
): Finding[] {
  return [...project.facts]
    .filter(([path]) => judged(path))
    .flatMap(([path, facts]) => findingsIn(path, facts));
}

export function spanLocation(path: string, span: Span): FindingLocation {
  return { path, startLine: span.start, endLine: span.end };
}

export function lineLocation(path: string, line: number): FindingLocation {
  return { path, startLine: line, endLine: line };
}

/**
 * A finding's identity across snapshots: the sha256 (hex) of rule, path and symbol joined by
 * NUL, a character none of them can hold, so no two triples hash the same text. Never line
 * numbers: code moving inside a file must not turn a baseline finding into a new one.
 * Repository-wide findings pass an empty path. The text is hashed as the bytes it was read
 * from (pathToBytes): plain UTF-8 would turn every byte of a name that is not UTF-8 into the
 * same U+FFFD, and two files into one finding. The rule is any id, known or not: a baseline
 * may record a rule this version does not run, and its entries still move with their files.
 */
export function fingerprintOf(ruleId: string, path: string, symbol: string): string {
  return createHash('sha256')
    .update(pathToBytes(`${ruleId}\0${path}\0${symbol}`))
    .digest('hex');
}
