import { describe, expect, it } from '@jest/globals';
import {
  APPROVE_BUDGET_USAGE_REPLY,
  BUILDER_NOT_ENABLED_REPLY,
  HELP_REPLY,
  immediateReply,
} from '../../src/github/command-replies.js';

describe('immediateReply', () => {
  it('lists every command in the help', () => {
    expect(immediateReply({ kind: 'help' })).toBe(HELP_REPLY);
    const commands = [
      'help',
      'check',
      'price',
      'simplify',
      'approve-budget <reason>',
      'approve-policy [reason]',
      'implement [--budget $N] [instructions]',
      'cancel',
    ];
    for (const command of commands) {
      expect(HELP_REPLY).toContain(`\`/aureus ${command}\``);
    }
  });

  it('answers an unknown command with the help, never echoing the word', () => {
    const reply = immediateReply({ kind: 'unknown', word: '@everyone' });
    expect(reply).toContain(HELP_REPLY);
    expect(reply).not.toContain('@everyone');
  });

  it('names the builder workflow and the exact key that enables the builder', () => {
    expect(immediateReply({ kind: 'implement', instructions: '' })).toBeUndefined();
    expect(HELP_REPLY).toContain('.github/workflows/aureus-builder.yml');
    expect(BUILDER_NOT_ENABLED_REPLY).toContain('integrations.app.builder: true');
    expect(BUILDER_NOT_ENABLED_REPLY).toContain('.aureus/policy.yaml');
  });

  it('explains approve-budget without a reason', () => {
    expect(immediateReply({ kind: 'usage', command: 'approve-budget' })).toBe(
      APPROVE_BUDGET_USAGE_REPLY,
    );
  });

  it('leaves commands that answer with their result to the handler', () => {
    expect(immediateReply({ kind: 'check' })).toBeUndefined();
    expect(immediateReply({ kind: 'price' })).toBeUndefined();
    expect(immediateReply({ kind: 'approve-budget', reason: 'hotfix' })).toBeUndefined();
    expect(immediateReply({ kind: 'approve-policy', reason: '' })).toBeUndefined();
  });
});
