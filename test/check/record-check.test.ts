import { describe, expect, it } from '@jest/globals';
import { ledgerRecord } from '../../src/check/record-check.js';
import { BLOCK, finding } from '../report/sample-reports.js';

describe('the ledger record of a check', () => {
  it('keeps every finding as rule and fingerprint, and the dependencies and modules added', () => {
    const report = {
      ...BLOCK,
      findings: [finding({ ruleId: 'god_class', fingerprint: 'aa' })],
      costItems: [
        ...BLOCK.costItems,
        { category: 'modules' as const, points: 20, path: null, detail: 'new module src/billing' },
      ],
    };
    const record = ledgerRecord(report);
    expect(record.found).toEqual([{ rule: 'god_class', fingerprint: 'aa' }]);
    expect(record.foundTotal).toBeUndefined();
    expect(record.newDependencies).toEqual(['left-pad']);
    expect(record.newModules).toEqual(['src/billing']);
  });

  it('keeps the first 500 findings and says how many there were', () => {
    const findings = Array.from({ length: 501 }, (_, index) =>
      finding({ fingerprint: index.toString(16).padStart(8, '0') }),
    );
    const record = ledgerRecord({ ...BLOCK, findings });
    expect(record.found).toHaveLength(500);
    expect(record.foundTotal).toBe(501);
  });
});
