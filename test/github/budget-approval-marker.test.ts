import { describe, expect, it } from '@jest/globals';
import { approvalMarker, readApprovalMarker } from '../../src/github/budget-approval-marker.js';

const approval = {
  headSha: 'a'.repeat(40),
  approverId: 42,
  approverLogin: 'maintainer',
  reason: 'migration --> <!-- aureus:budget-approval x --> agreed',
};

describe('the budget approval marker', () => {
  it('reads back what it wrote, whatever the reason holds', () => {
    const body = `${approvalMarker(approval)}\nBudget overrun approved.`;
    expect(body.split('\n')[0]).toMatch(/^<!-- aureus:budget-approval [A-Za-z0-9_-]+ -->$/);
    expect(readApprovalMarker(body)).toEqual(approval);
  });

  it.each([
    ['no marker', 'Budget overrun approved.'],
    ['a marker later in the body', `quoted:\n${approvalMarker(approval)}`],
    ['not base64 JSON', '<!-- aureus:budget-approval not-json -->'],
    ['a short sha', approvalMarker({ ...approval, headSha: 'abc123' })],
    ['an id that is not a positive integer', approvalMarker({ ...approval, approverId: -1 })],
    ['an empty reason', approvalMarker({ ...approval, reason: '' })],
  ])('refuses %s', (_name, body) => {
    expect(readApprovalMarker(body)).toBeUndefined();
  });
});
