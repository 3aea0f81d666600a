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
}

export interface SarifLocation {
  physicalLocation: {
    artifactLocation: { uri: string; uriBaseId: string };
    region: { startLine: number; startColumn?: number; endLine: number };
  };
}
