import { describe, expect, it } from '@jest/globals';
import { readWorkflowEvent } from '../../src/github/workflow-event.js';
import { AureusError } from '../../src/model/errors.js';
import { objectAt, webhookExample } from '../support/webhook-examples.js';

describe('readWorkflowEvent', () => {
  it('reads a real pull_request.opened payload', () => {
    const payload = webhookExample('pull_request', 'opened');
    const event = readWorkflowEvent('pull_request', payload);
    expect(event.repository.owner).toMatch(/\S/);
    expect(event.target).toMatchObject({ kind: 'pull-request', fromFork: false });
    if (event.target.kind !== 'pull-request') throw new Error('not a pull request');
    expect(event.target.baseSha).toMatch(/^[0-9a-f]{40}$/);
    expect(event.target.number).toBeGreaterThan(0);
  });

  it.each(['submitted', 'dismissed'])(
    'reads a real pull_request_review.%s payload as its pull request, to judge it again',
    (action) => {
      const payload = webhookExample('pull_request_review', action);
      const pull = objectAt(payload, 'pull_request');
      const event = readWorkflowEvent('pull_request_review', payload);
      expect(event.target).toMatchObject({
        kind: 'pull-request',
        number: Reflect.get(pull, 'number'),
        headSha: Reflect.get(objectAt(pull, 'head'), 'sha'),
      });
    },
  );

  it('tells a fork pull request by its head repository', () => {
    const payload = webhookExample('pull_request', 'opened');
    const head = objectAt(objectAt(payload, 'pull_request'), 'head');
    Reflect.set(head, 'repo', { ...objectAt(head, 'repo'), full_name: 'forker/fork' });
    expect(readWorkflowEvent('pull_request', payload).target).toMatchObject({ fromFork: true });
    Reflect.set(head, 'repo', null);
    expect(readWorkflowEvent('pull_request', payload).target).toMatchObject({ fromFork: true });
  });

  it('reads push, merge_group and workflow_dispatch payloads', () => {
    const push = readWorkflowEvent('push', webhookExample('push'));
    expect(push.target.kind).toBe('push');
    const group = readWorkflowEvent('merge_group', webhookExample('merge_group'));
    expect(group.target).toMatchObject({ kind: 'merge-group' });
    expect(
      readWorkflowEvent('workflow_dispatch', webhookExample('workflow_dispatch')).target,
    ).toEqual({ kind: 'dispatch' });
  });

  it('reads a push that created a branch as one without a before', () => {
    const payload = { ...webhookExample('push'), before: '0'.repeat(40), created: true };
    expect(readWorkflowEvent('push', payload).target).toMatchObject({ before: null });
  });

  it('refuses other events and malformed payloads with a hint', () => {
    expect(() => readWorkflowEvent('issues', webhookExample('push'))).toThrow(AureusError);
    const payload = webhookExample('pull_request', 'opened');
    Reflect.set(objectAt(objectAt(payload, 'pull_request'), 'base'), 'sha', 'main; rm -rf /');
    expect(() => readWorkflowEvent('pull_request', payload)).toThrow(
      /no valid pull_request\.base\.sha/,
    );
    expect(() => readWorkflowEvent('push', null)).toThrow(/repository\.full_name/);
  });
});
