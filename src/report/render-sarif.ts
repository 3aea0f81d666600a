import { RULES } from '../critic/run-critic.js';
import type { FindingLocation } from '../model/finding.js';
import { pathToBytes } from '../model/path-bytes.js';
import type { ForbiddenPatternId } from '../model/policy.js';
import type { FindingStatus, Report, ReportFinding } from '../model/report.js';
import { escapeControls, jsonText } from './plain-text.js';
import { placeOf } from './report-facts.js';

export interface SarifOptions {
  readonly toolVersion: string;
  readonly informationUri?: string;
}

/** The address GitHub's code scanning documentation gives for the 2.1.0 schema. */
const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** Fingerprint key: versioned, so a change of fingerprint recipe is a new key, not a clash. */
const FINGERPRINT_KEY = 'aureus/v1';

const BASELINE_STATE: Readonly<Record<FindingStatus, SarifResult['baselineState']>> = {
  new: 'new',
  worsened: 'updated',
  baseline: 'unchanged',
};

const DESCRIPTIONS: ReadonlyMap<ForbiddenPatternId, string> = new Map(
  RULES.map((rule) => [rule.id, rule.description]),
);

/** What encodeURIComponent leaves as it is. */
const URI_UNRESERVED = /^[A-Za-z0-9\-_.!~*'()]$/;

/**
 * A repository-relative path as a relative URI reference: each segment percent-encoded, so a
 * space, `#`, `%` or a `:` in the first segment (which would read as a scheme) stays a path.
 * The bytes are the path's own (pathToBytes), so a name that is not UTF-8 keeps its identity
 * (`x%FE.ts`, not U+FFFD); for any other name this is encodeURIComponent's answer.
 */
export function pathToUri(path: string): string {
  return path.split('/').map(encodeSegment).join('/');
}

function encodeSegment(segment: string): string {
  let encoded = '';
  for (const byte of pathToBytes(segment)) {
    const character = String.fromCharCode(byte);
    encoded += URI_UNRESERVED.test(character)
      ? character
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

function physicalLocation(place: FindingLocation): SarifLocation {
  const startLine = Math.max(1, place.startLine);
  // SARIF counts columns in UTF-16 code units by default (columnKind), as FindingLocation does.
  const column = place.startColumn === undefined ? {} : { startColumn: place.startColumn };
  return {
    physicalLocation: {
      artifactLocation: { uri: pathToUri(place.path), uriBaseId: '%SRCROOT%' },
      region: { startLine, ...column, endLine: Math.max(startLine, place.endLine) },
    },
  };
}

function rulesOf(findings: readonly ReportFinding[]): SarifRule[] {
  const present = new Set(findings.map((finding) => finding.ruleId));
  const known = RULES.map((rule) => rule.id).filter((id) => present.has(id));
  const unknown = [...present].filter((id) => !DESCRIPTIONS.has(id)).sort();
  return [...known, ...unknown].map((id) => ({
    id,
    shortDescription: { text: DESCRIPTIONS.get(id) ?? id },
    properties: { tags: ['maintainability', 'complexity'] },
  }));
}

function invocationOf(report: Report): SarifInvocation {
  const incomplete = report.verdict === 'incomplete';
  // SARIF asks for unique notifications; a note may repeat in the report.
  const notes = [...new Set(report.change.notes)];
  const level: SarifNotification['level'] = incomplete ? 'warning' : 'note';
  return {
    executionSuccessful: !incomplete,
    ...(notes.length === 0
      ? {}
      : {
          toolExecutionNotifications: notes.map((text) => ({
            level,
            message: { text: escapeControls(text) },
          })),
        }),
  };
}

/** The SARIF log as data, for callers that upload it and for the type check in test/report. */
export function sarifLog(report: Report, options: SarifOptions): SarifLog {
  const rules = rulesOf(report.findings);
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
  const results = report.findings.map(
    (finding): SarifResult => ({
      ruleId: finding.ruleId,
      ruleIndex: ruleIndex.get(finding.ruleId) ?? -1,
      level: finding.severity === 'error' ? 'error' : 'warning',
      message: { text: escapeControls(finding.message) },
      // Repository-wide findings (module, file, LOC budgets) point at line 1 of the policy, where
      // the budget they break is set: code scanning shows no alert without a location.
      locations: [physicalLocation(placeOf(finding))],
      partialFingerprints: { [FINGERPRINT_KEY]: finding.fingerprint },
      baselineState: BASELINE_STATE[finding.status],
      ...relatedOf(finding),
    }),
  );
  const { informationUri } = options;
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'aureus',
            version: options.toolVersion,
            ...(informationUri === undefined ? {} : { informationUri }),
            rules,
          },
        },
        invocations: [invocationOf(report)],
        results,
      },
    ],
  };
}

/** SARIF 2.1.0 for code scanning: one run, one rule per rule id present, one result per finding. */
export function renderSarif(report: Report, options: SarifOptions): string {
  return jsonText(sarifLog(report, options), 2);
}

/**
 * The part of SARIF 2.1.0 that AUREUS writes. Declared here rather than imported from
 * `@types/sarif`: that package is a dev dependency, and shipped code may not need one
 * (`npm run boundaries`). test/report checks that these types fit `@types/sarif`'s `Log`.
 */
export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: SarifRun[];
}

export interface SarifRun {
  tool: { driver: SarifDriver };
  invocations: SarifInvocation[];
  results: SarifResult[];
}

export interface SarifDriver {
  name: string;
  version: string;
  informationUri?: string;
  rules: SarifRule[];
}

export interface SarifRule {
  id: string;
  shortDescription: { text: string };
  properties: { tags: string[] };
}

export interface SarifInvocation {
  executionSuccessful: boolean;
  toolExecutionNotifications?: SarifNotification[];
}

export interface SarifNotification {
  level: 'warning' | 'note';
  message: { text: string };
}

export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: 'error' | 'warning';
  message: { text: string };
  locations: SarifLocation[];
  partialFingerprints: { [key: string]: string };
  baselineState: 'new' | 'updated' | 'unchanged';
  relatedLocations?: SarifRelatedLocation[];
}

export interface SarifRelatedLocation extends SarifLocation {
  id: number;
  message: { text: string };
}

export interface SarifLocation {
  physicalLocation: {
    artifactLocation: { uri: string; uriBaseId: string };
    region: { startLine: number; startColumn?: number; endLine: number };
  };
}

/** A cycle's other files, so code scanning shows the whole cycle, not only where it is reported. */
function relatedOf(finding: ReportFinding): { relatedLocations?: SarifRelatedLocation[] } {
  if (finding.related.length === 0) return {};
  return {
    relatedLocations: finding.related.map((place, index) => ({
      id: index + 1,
      ...physicalLocation(place),
      message: { text: 'also in this cycle' },
    })),
  };
}
