import { describe, expect, it } from '@jest/globals';
import { isSimplifyCommit, simplifyCommitMessage } from '../../src/github/simplify-commit.js';
import { unifiedDiff } from '../../src/reflexion/edit-forms.js';
import type { FileEdit } from '../../src/reflexion/proposal.js';
import { addedLineNumbers, fenceFor, planDelivery } from '../../src/simplify/delivery-plan.js';
import { appendDiffs, removedLines, reviewBody } from '../../src/simplify/delivery-text.js';
import type { VerifiedPatch } from '../../src/simplify/verify-proposal.js';

const HEAD = 'a'.repeat(40);

function patch(title: string, edits: FileEdit[], total = -3): VerifiedPatch {
  return {
    proposal: { pass: 'unused-code', title, path: edits[0]?.path ?? '', line: 1, edits },
    patch: unifiedDiff(edits),
    price: {
      cost: {
        loc: total,
        dependencies: 0,
        abstractions: 0,
        security: 0,
        files: 0,
        modules: 0,
        tool: 0,
        total,
      },
      items: [],
      dependencies: [],
      notes: [],
      unmeasured: [],
    },
  };
}

const TEN = `${Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n')}\n`;
const everyLine = () => new Set(Array.from({ length: 40 }, (_, index) => index + 1));
const allow = { suggestions: true, commit: true };

describe('planDelivery', () => {
  it('suggests a one-hunk edit of one file on added lines, with the replacement lines', () => {
    const edit = { path: 'a.ts', before: TEN, after: TEN.replace('line 4\nline 5\n', 'line 45\n') };
    const plan = planDelivery([patch('Merge', [edit])], everyLine, allow);
    expect(plan.committed).toEqual([]);
    expect(plan.suggestions).toHaveLength(1);
    const { comment } = plan.suggestions[0] ?? {};
    expect(comment).toMatchObject({ path: 'a.ts', startLine: 4, line: 5 });
    expect(comment?.body).toMatch(/\n```suggestion\nline 45\n```$/);
    expect(comment?.body).toContain('`unused-code` · -3 points');
  });

  it('suggests deleting lines with an empty suggestion', () => {
    const edit = { path: 'a.ts', before: TEN, after: TEN.replace('line 2\n', '') };
    const [suggestion] = planDelivery([patch('Drop', [edit])], everyLine, allow).suggestions;
    expect(suggestion?.comment).toMatchObject({ startLine: 2, line: 2 });
    expect(suggestion?.comment.body).toMatch(/```suggestion\n```$/);
  });

  it('commits what cannot be a suggestion: two hunks, two files, a deleted file, lines the pull request did not add, an insertion', () => {
    const twoHunks = {
      path: 'a.ts',
      before: TEN,
      after: TEN.replace('line 2\n', '').replace('line 9\n', ''),
    };
    const twoFiles = [
      { path: 'b.ts', before: TEN, after: TEN.replace('line 1\n', '') },
      { path: 'c.ts', before: TEN, after: TEN.replace('line 1\n', '') },
    ];
    const deleted = { path: 'd.ts', before: TEN, after: null };
    const oldLines = { path: 'e.ts', before: TEN, after: TEN.replace('line 7\n', '') };
    const insertion = {
      path: 'f.ts',
      before: TEN,
      after: TEN.replace('line 3\n', 'line 3\nnew\n'),
    };
    const patches = [
      patch('two hunks', [twoHunks]),
      patch('two files', twoFiles),
      patch('deleted', [deleted]),
      patch('old lines', [oldLines]),
      patch('insertion', [insertion]),
    ];
    const added = (path: string) => (path === 'e.ts' ? new Set([1, 2, 3]) : everyLine());
    const plan = planDelivery(patches, added, allow);
    expect(plan.suggestions).toEqual([]);
    expect(plan.committed.map((p) => p.proposal.title)).toEqual(
      patches.map((p) => p.proposal.title),
    );
    expect(planDelivery(patches, added, { suggestions: true, commit: false }).listed).toHaveLength(
      5,
    );
  });

  it('leaves large replacements to the commit and everything to it when suggestions are off', () => {
    const long = `${Array.from({ length: 30 }, (_, index) => `x${index}`).join('\n')}\n`;
    const edit = { path: 'a.ts', before: long, after: 'x\n' };
    expect(planDelivery([patch('big', [edit])], everyLine, allow).committed).toHaveLength(1);
    const small = { path: 'a.ts', before: TEN, after: TEN.replace('line 2\n', '') };
    const off = planDelivery([patch('small', [small])], everyLine, {
      suggestions: false,
      commit: true,
    });
    expect(off.suggestions).toEqual([]);
    expect(off.committed).toHaveLength(1);
  });

  it('fences a replacement that holds backticks with a longer fence', () => {
    expect(fenceFor('no ticks')).toBe('```');
    expect(fenceFor('a ``` b ```` c')).toBe('`````');
    const edit = {
      path: 'a.ts',
      before: 'const a = 1;\nconst b = 2;\n',
      after: 'const s = "```";\nconst b = 2;\n',
    };
    const [suggestion] = planDelivery([patch('ticks', [edit])], everyLine, allow).suggestions;
    expect(suggestion?.comment.body).toMatch(/````suggestion\nconst s = "```";\n````$/);
  });
});

describe('addedLineNumbers', () => {
  it('numbers the head lines a change adds, none it keeps', () => {
    expect([...addedLineNumbers('a\nb\nc\n', 'a\nx\nb\ny\nz\n')]).toEqual([2, 4, 5]);
    expect([...addedLineNumbers('', 'a\nb\n')]).toEqual([1, 2]);
    expect([...addedLineNumbers('a\nb\n', 'a\nb\n')]).toEqual([]);
  });
});

describe('the simplification commit and review texts', () => {
  it('marks AUREUS commits with a trailer no other message carries by accident', () => {
    const message = simplifyCommitMessage(12, ['Inline `f`', 'Remove 1 unused import'], HEAD);
    expect(message.split('\n')[0]).toBe('aureus: simplify (−12 lines)');
    expect(message).toContain('- Inline `f`\n- Remove 1 unused import\n');
    expect(isSimplifyCommit(message)).toBe(true);
    expect(isSimplifyCommit('aureus: simplify (−3 lines)\n\nby hand')).toBe(false);
    expect(isSimplifyCommit(`fix: something\n\nAureus-Simplified: ${HEAD}\n`)).toBe(false);
  });

  it('counts removed lines net, a deleted file with all of its lines', () => {
    expect(removedLines([patch('a', [{ path: 'a.ts', before: TEN, after: 'one\n' }])])).toBe(9);
    expect(removedLines([patch('d', [{ path: 'd.ts', before: TEN, after: null }])])).toBe(10);
    expect(removedLines([patch('g', [{ path: 'g.ts', before: 'a\n', after: 'a\nb\nc\n' }])])).toBe(
      0,
    );
  });

  it('says where each patch went, with the marker for this head', () => {
    const one = patch('Inline <T> & co', [{ path: 'a.ts', before: TEN, after: 'one\n' }], -9);
    const body = reviewBody({
      headSha: HEAD,
      why: 'the change adds 120 logical lines',
      suggested: [],
      committed: [],
      commitLine: undefined,
      listed: [one],
      listedLine: 'Not committed, because simplification.auto_commit is off.',
      findings: [],
    });
    expect(
      body.startsWith(
        `<!-- aureus:simplify head=${HEAD} -->\n**AUREUS simplify**: 1 verified simplification for this change, because the change adds 120 logical lines.`,
      ),
    ).toBe(true);
    expect(body).toContain('together -9 points');
    expect(body).toContain('<summary>Inline &lt;T&gt; &amp; co · -9 points</summary>');
    expect(body).toContain('```diff\ndiff --git a/a.ts b/a.ts');
  });

  it('lists the findings in other languages, with no patch', () => {
    const body = reviewBody({
      headSha: HEAD,
      why: 'the change adds 120 logical lines',
      suggested: [],
      committed: [],
      commitLine: undefined,
      listed: [],
      listedLine: '',
      findings: [{ pass: 'inline-trivial-function', title: 'Inline `_f`', path: 'a.py', line: 3 }],
    });
    expect(body).toContain(
      'ran on this change because the change adds 120 logical lines, and has no verified patch',
    );
    expect(body).toContain(
      'In Python and Go, no patch yet; to simplify by hand:\n- Inline `_f` (`a.py:3`)',
    );
  });

  it('stops listing diffs before the body outgrows what GitHub takes', () => {
    const huge =
      Array.from({ length: 2000 }, (_, index) => `const value${index} = ${index};`).join('\n') +
      '\n';
    const patches = Array.from({ length: 6 }, (_, index) =>
      patch(`p${index}`, [{ path: `f${index}.ts`, before: huge, after: 'x\n' }]),
    );
    const body = appendDiffs('head', patches);
    expect(body.length).toBeLessThanOrEqual(61_000);
    expect(body).toMatch(/\d more patch(es)? did not fit here/);
  });
});
