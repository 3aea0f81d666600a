import { describe, expect, it } from '@jest/globals';
import { changeOfTarget } from '../../src/action/change-of-target.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const inputs = { base: null, head: null, sha: B };
const push = {
  kind: 'push',
  before: A,
  after: B,
  ref: 'refs/heads/main',
  defaultBranch: 'main',
  deleted: false,
} as const;

describe('changeOfTarget', () => {
  it('compares a pull request with its merge base, as GitHub shows it', () => {
    const target = {
      kind: 'pull-request',
      number: 1,
      baseSha: A,
      headSha: B,
      baseRef: 'main',
      headRef: 'feature',
      fromFork: false,
      title: 't',
    } as const;
    expect(changeOfTarget(target, inputs)).toEqual({
      kind: 'range',
      base: A,
      head: B,
      threeDot: true,
    });
  });

  it('judges a push by its net effect, a new branch by its merge base on the default branch', () => {
    expect(changeOfTarget(push, inputs)).toEqual({ kind: 'range', base: A, head: B });
    expect(changeOfTarget({ ...push, before: null, ref: 'refs/heads/topic' }, inputs)).toEqual({
      kind: 'range',
      base: 'main',
      head: B,
      threeDot: true,
    });
    expect(changeOfTarget({ ...push, before: null }, inputs)).toEqual({ kind: 'commit', ref: B });
    expect(changeOfTarget({ ...push, deleted: true }, inputs)).toBeNull();
  });

  it('judges a merge group by its base and head', () => {
    expect(changeOfTarget({ kind: 'merge-group', baseSha: A, headSha: B }, inputs)).toEqual({
      kind: 'range',
      base: A,
      head: B,
    });
  });

  it('takes a dispatch run from its inputs and asks for the base', () => {
    expect(changeOfTarget({ kind: 'dispatch' }, { base: 'v1.0', head: null, sha: B })).toEqual({
      kind: 'range',
      base: 'v1.0',
      head: B,
      threeDot: true,
    });
    expect(() => changeOfTarget({ kind: 'dispatch' }, inputs)).toThrow(
      /workflow_dispatch run needs/,
    );
  });
});
