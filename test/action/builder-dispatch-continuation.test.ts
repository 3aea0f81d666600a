import { describe, expect, it } from '@jest/globals';
import { readBuilderDispatch } from '../../src/action/builder-dispatch.js';
import { GITHUB_ACTIONS_BOT_ID } from '../../src/action/runner-environment.js';

/** A continuation's dispatch as GitHub delivers it, sent by `sender`. */
function continuation(sender: { login: string; id: number }) {
  return {
    repository: { full_name: 'octo/app', default_branch: 'main' },
    sender: { ...sender, type: 'Bot' },
    inputs: {
      issue: '5',
      snapshot: 'a'.repeat(64),
      requester: '4242',
      run_id: 'a1b2c3d4e5f6',
      trigger: 'approval-881',
      resume_from: '4711',
      budget_usd: '5',
    },
  };
}

describe('a continuation of a stopped builder run, as the dispatch names it', () => {
  it('is read from the AUREUS App, which recorded the stopped run', () => {
    const dispatch = readBuilderDispatch(
      'workflow_dispatch',
      continuation({ login: 'aureus[bot]', id: 9101 }),
    );
    expect(dispatch).toMatchObject({ resumeFrom: 4711, approval: 881, dispatcher: 9101 });
  });

  it('is refused from github-actions[bot], which any writer’s own workflow acts as: the Action continues no run', () => {
    expect(() =>
      readBuilderDispatch(
        'workflow_dispatch',
        continuation({ login: 'github-actions[bot]', id: GITHUB_ACTIONS_BOT_ID }),
      ),
    ).toThrow('as github-actions[bot]: with the Action, a stopped run is not continued.');
  });
});
