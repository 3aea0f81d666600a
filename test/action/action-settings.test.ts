import { describe, expect, it } from '@jest/globals';
import { readActionSettings } from '../../src/action/action-settings.js';
import { AureusError } from '../../src/model/errors.js';

/** The message and its "To resolve" hint, as the Action prints them. */
function errorOf(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (error instanceof AureusError) return `${error.message} To resolve, ${error.hint}`;
    throw error;
  }
  throw new Error('expected an AureusError');
}

describe('readActionSettings', () => {
  it('has the defaults of action.yml when inputs are empty', () => {
    const settings = readActionSettings({});
    expect(settings).toMatchObject({
      mode: 'check',
      outputDir: 'aureus-run',
      token: '',
      policyPath: '.aureus/policy.yaml',
      comment: true,
      annotations: 'checks',
      sarifFile: null,
      sharedLedger: true,
      checkName: 'AUREUS',
    });
    expect([...settings.failOn]).toEqual(['findings', 'budget', 'incomplete']);
  });

  it('reads inputs as the runner passes them', () => {
    const settings = readActionSettings({
      'INPUT_GITHUB-TOKEN': ' t0k ',
      INPUT_COMMENT: 'false',
      INPUT_ANNOTATIONS: 'log',
      'INPUT_FAIL-ON': 'budget, incomplete',
      'INPUT_SARIF-FILE': 'aureus.sarif',
    });
    expect(settings).toMatchObject({
      token: 't0k',
      comment: false,
      annotations: 'log',
      sarifFile: 'aureus.sarif',
    });
    expect([...settings.failOn]).toEqual(['budget', 'incomplete']);
    expect(readActionSettings({ 'INPUT_FAIL-ON': 'none' }).failOn.size).toBe(0);
  });

  it('refuses inputs it cannot honour, with the fix', () => {
    expect(errorOf(() => readActionSettings({ INPUT_COMMENT: 'yes' }))).toMatch(
      /comment: true or comment: false/,
    );
    expect(errorOf(() => readActionSettings({ INPUT_ANNOTATIONS: 'all' }))).toMatch(
      /checks, log, off/,
    );
    expect(errorOf(() => readActionSettings({ 'INPUT_FAIL-ON': 'warnings' }))).toMatch(
      /findings, budget, incomplete/,
    );
    expect(errorOf(() => readActionSettings({ INPUT_POLICY: '../../etc/passwd' }))).toMatch(
      /inside the repository/,
    );
    expect(errorOf(() => readActionSettings({ INPUT_POLICY: '/etc/passwd' }))).toMatch(
      /inside the repository/,
    );
  });
});
