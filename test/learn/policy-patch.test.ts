import { describe, expect, it } from '@jest/globals';
import type { PolicyEdit } from '../../src/learn/policy-edit.js';
import { patchPolicyText } from '../../src/learn/policy-patch.js';
import { AureusError } from '../../src/model/errors.js';
import { parsePolicy } from '../../src/policy/parse-policy.js';

const EDIT: PolicyEdit = {
  path: ['forbidden_patterns', 'global_mutable_state', 'severity'],
  from: 'error',
  to: 'warn',
  kind: 'relaxation',
  why: 'overridden 5 times in 30 days',
  evidence: [],
};

describe('patchPolicyText', () => {
  it('edits one setting and keeps the comments', () => {
    const text =
      'version: 1\nforbidden_patterns:\n  # why it is strict\n  global_mutable_state:\n    severity: error\n';
    expect(patchPolicyText(text, [EDIT])).toBe(
      'version: 1\nforbidden_patterns:\n  # why it is strict\n  global_mutable_state:\n    severity: warn\n',
    );
  });

  it('writes flow lists back as the file writes them, so the diff holds the edit alone', () => {
    const tight =
      'version: 1\nproject:\n  stack:\n    languages: [typescript, python]\nforbidden_patterns:\n  global_mutable_state:\n    severity: error\n';
    expect(patchPolicyText(tight, [EDIT])).toBe(tight.replace('severity: error', 'severity: warn'));
    const padded = tight.replace('[typescript, python]', '[ typescript, python ]');
    expect(patchPolicyText(padded, [EDIT])).toBe(
      padded.replace('severity: error', 'severity: warn'),
    );
  });

  it('refuses a policy whose edit would go through an alias and change more than it shows', () => {
    const text =
      'version: 1\nforbidden_patterns:\n  global_mutable_state: &strict\n    severity: error\n  reflection: *strict\n';
    expect(parsePolicy(text, '.aureus/policy.yaml').ok).toBe(true);
    expect(() => patchPolicyText(text, [EDIT])).toThrow(AureusError);
    expect(() => patchPolicyText(text, [EDIT])).toThrow(/uses YAML aliases/);
    // With nothing to edit there is nothing to refuse.
    expect(patchPolicyText(text, [])).toBe(text);
  });
});
