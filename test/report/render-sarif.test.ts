import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Log } from 'sarif';
import { RULES } from '../../src/critic/run-critic.js';
import { pathToUri, renderSarif, sarifLog } from '../../src/report/render-sarif.js';
import {
  BLOCK,
  finding,
  HOSTILE,
  HUGE,
  INCOMPLETE,
  SAMPLES,
  UNPARSABLE,
} from './sample-reports.js';

/**
 * The SARIF 2.1.0 schema, byte for byte as `sarif-2.1.0.json` in the npm package
 * @microsoft/sarif-multitool-linux@5.7.0 (microsoft/sarif-sdk, MIT). That package is 108 MB of
 * .NET binaries for Linux only, so the file is vendored rather than installed.
 */
const SCHEMA_PATH = 'schemas/vendor/sarif-2.1.0.schema.json';
const SCHEMA_SHA256 = '1c49a0f2b60444c71bb14878e21e0d882198eff4c539861b133093ad89ed798c';
const schemaText = readFileSync(SCHEMA_PATH, 'utf8');

// The file declares JSON Schema 2020-12 ($schema) and keeps draft-07 style definitions.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(JSON.parse(schemaText));

const OPTIONS = { toolVersion: '0.1.0', informationUri: 'https://example.org/aureus' };

function errorsOf(text: string): unknown {
  return validate(JSON.parse(text)) ? [] : validate.errors;
}

// Compile-time check: what AUREUS writes is a SARIF log as @types/sarif describes it.
const typed: Log = sarifLog(BLOCK, OPTIONS);

describe('renderSarif', () => {
  it('is checked against the vendored official schema, unchanged', () => {
    expect(createHash('sha256').update(schemaText).digest('hex')).toBe(SCHEMA_SHA256);
    expect(typed.version).toBe('2.1.0');
  });

  it.each([...SAMPLES, ['10,000 findings', HUGE] as const])(
    'validates the %s report against SARIF 2.1.0',
    (_name, report) => {
      expect(errorsOf(renderSarif(report, OPTIONS))).toEqual([]);
    },
  );

  it('writes one run with one rule per rule id present, described from the critic registry', () => {
    const [run] = sarifLog(BLOCK, OPTIONS).runs;
    const rules = run?.tool.driver.rules ?? [];
    expect(rules.map((rule) => rule.id)).toEqual([
      'god_class',
      'premature_abstraction',
      'module_budget',
    ]);
    const godClass = RULES.find((rule) => rule.id === 'god_class');
    expect(rules[0]?.shortDescription.text).toBe(godClass?.description);
    expect(run?.results.map((result) => rules[result.ruleIndex]?.id)).toEqual(
      run?.results.map((r) => r.ruleId),
    );
  });

  it('maps severity, status and fingerprint of each finding', () => {
    const results = sarifLog(BLOCK, OPTIONS).runs[0]?.results ?? [];
    expect(results.map((r) => [r.level, r.baselineState])).toEqual([
      ['error', 'new'],
      ['error', 'new'],
      ['warning', 'new'],
      ['error', 'unchanged'],
    ]);
    const worsened = sarifLog({ ...BLOCK, findings: [finding({ status: 'worsened' })] }, OPTIONS);
    expect(worsened.runs[0]?.results[0]?.baselineState).toBe('updated');
    expect(results[0]?.partialFingerprints).toEqual({ 'aureus/v1': finding().fingerprint });
  });

  it('puts lines in the region and repository-wide findings on line 1 of the policy', () => {
    const results = sarifLog(BLOCK, OPTIONS).runs[0]?.results ?? [];
    expect(results[0]?.locations[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'src/engine.ts', uriBaseId: '%SRCROOT%' },
      region: { startLine: 3, endLine: 615 },
    });
    expect(results[1]?.locations[0]?.physicalLocation.artifactLocation.uri).toBe(
      '.aureus/policy.yaml',
    );
  });

  it('puts the column of a finding at one place in its region', () => {
    const results = sarifLog(UNPARSABLE, OPTIONS).runs[0]?.results ?? [];
    expect(results[0]?.locations[0]?.physicalLocation.region).toEqual({
      startLine: 18,
      startColumn: 15,
      endLine: 18,
    });
  });

  it('percent-encodes paths as URI references', () => {
    expect(pathToUri('::add-mask::x')).toBe('%3A%3Aadd-mask%3A%3Ax');
    expect(pathToUri('src/a b#c%d?.ts')).toBe('src/a%20b%23c%25d%3F.ts');
    expect(pathToUri('src/🔥/é.ts')).toBe('src/%F0%9F%94%A5/%C3%A9.ts');
    // A name that is not UTF-8 keeps its own bytes (model/path-bytes.ts), not U+FFFD.
    expect(pathToUri('src/x\uDCFE.ts')).toBe('src/x%FE.ts');
    expect(errorsOf(renderSarif(HOSTILE, OPTIONS))).toEqual([]);
  });

  it('gives a cycle every other member file as a related location', () => {
    const cycle = finding({
      ruleId: 'circular_dependency',
      message: 'src/a.ts, src/b (1).ts and src/c.ts import one another in a cycle of 3 files',
      location: { path: 'src/a.ts', startLine: 3, endLine: 3 },
      related: [
        { path: 'src/b (1).ts', startLine: 1, endLine: 1 },
        { path: 'src/c.ts', startLine: 2, endLine: 2 },
      ],
      symbol: 'src/a.ts\nsrc/b (1).ts\nsrc/c.ts',
    });
    const report = { ...BLOCK, findings: [cycle, finding()] };
    const [withCycle, single] = sarifLog(report, OPTIONS).runs[0]?.results ?? [];
    expect(withCycle?.relatedLocations).toEqual([
      {
        id: 1,
        physicalLocation: {
          artifactLocation: { uri: 'src/b%20(1).ts', uriBaseId: '%SRCROOT%' },
          region: { startLine: 1, endLine: 1 },
        },
        message: { text: 'also in this cycle' },
      },
      {
        id: 2,
        physicalLocation: {
          artifactLocation: { uri: 'src/c.ts', uriBaseId: '%SRCROOT%' },
          region: { startLine: 2, endLine: 2 },
        },
        message: { text: 'also in this cycle' },
      },
    ]);
    expect(single).not.toHaveProperty('relatedLocations');
    expect(errorsOf(renderSarif(report, OPTIONS))).toEqual([]);
  });

  it('marks an incomplete verdict as an unsuccessful execution with its notes', () => {
    const invocation = sarifLog(INCOMPLETE, OPTIONS).runs[0]?.invocations[0];
    expect(invocation?.executionSuccessful).toBe(false);
    expect(invocation?.toolExecutionNotifications?.map((n) => n.message.text)).toEqual(
      INCOMPLETE.change.notes,
    );
  });
});
