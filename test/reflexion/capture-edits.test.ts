import { describe, expect, it } from '@jest/globals';
import { unifiedDiff } from '../../src/reflexion/edit-forms.js';
import { captureEdits } from '../../src/reflexion/proposal.js';
import { fixtureContext } from './support/fixture-project.js';

const FILES = {
  'src/a.ts': "import { b } from './b.js';\nexport const a = b + 1;\n",
  'src/b.ts': 'export const b = 1;\n',
};

describe('captureEdits', () => {
  it('returns what a change did as text and puts the project back', () => {
    const context = fixtureContext(FILES);
    const edits = captureEdits(context, () => {
      const b = context.project.getSourceFileOrThrow('/repo/src/b.ts');
      b.getVariableDeclarationOrThrow('b').rename('one');
    });
    expect(edits).toEqual([
      {
        path: 'src/a.ts',
        before: FILES['src/a.ts'],
        after: "import { one } from './b.js';\nexport const a = one + 1;\n",
      },
      { path: 'src/b.ts', before: FILES['src/b.ts'], after: 'export const one = 1;\n' },
    ]);
    for (const file of context.project.getSourceFiles())
      expect(file.getFullText()).toBe(
        FILES[file.getBaseName() === 'a.ts' ? 'src/a.ts' : 'src/b.ts'],
      );
  });

  it('deletes a file left empty, and undoes a change that throws', () => {
    const context = fixtureContext(FILES);
    const edits = captureEdits(context, () => {
      context.project.getSourceFileOrThrow('/repo/src/b.ts').replaceWithText('\n');
    });
    expect(edits).toEqual([{ path: 'src/b.ts', before: FILES['src/b.ts'], after: null }]);
    expect(() =>
      captureEdits(context, () => {
        context.project.getSourceFileOrThrow('/repo/src/a.ts').replaceWithText('');
        throw new Error('pass failed');
      }),
    ).toThrow('pass failed');
    expect(context.project.getSourceFileOrThrow('/repo/src/a.ts').getFullText()).toBe(
      FILES['src/a.ts'],
    );
  });
});

describe('unifiedDiff', () => {
  it('writes a git-style diff, with /dev/null for a deleted file', () => {
    expect(
      unifiedDiff([
        { path: 'src/a.ts', before: 'one\ntwo\n', after: 'one\n' },
        { path: 'src/b.ts', before: 'gone\n', after: null },
      ]),
    ).toBe(
      [
        'diff --git a/src/a.ts b/src/a.ts',
        '--- a/src/a.ts',
        '+++ b/src/a.ts',
        '@@ -1,2 +1,1 @@',
        ' one',
        '-two',
        'diff --git a/src/b.ts b/src/b.ts',
        'deleted file mode 100644',
        '--- a/src/b.ts',
        '+++ /dev/null',
        '@@ -1,1 +0,0 @@',
        '-gone',
        '',
      ].join('\n'),
    );
  });
});
