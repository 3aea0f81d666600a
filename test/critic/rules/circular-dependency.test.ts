import { describe, expect, it } from '@jest/globals';
import { circularDependency } from '../../../src/critic/rules/circular-dependency.js';
import { contextOf } from '../critic-support.js';

const TYPE_CYCLE = {
  'src/c.ts': "import type { D } from './d.js';\nexport interface C {\n  d?: D;\n}\n",
  'src/d.ts': "// d\nimport type { C } from './c.js';\nexport interface D {\n  c?: C;\n}\n",
};

describe('circular_dependency', () => {
  it('reports a runtime cycle once, at the first file’s first import into it', async () => {
    const context = await contextOf({
      'src/a.ts':
        "import { join } from 'node:path';\n// a\nimport { b } from './b.js';\nexport const a = () => b() + join('x').length;\n",
      'src/b.ts': "import { c } from './c.js';\nexport const b = () => c();\n",
      'src/c.ts': "import { a } from './a.js';\nexport const c = () => a.length;\n",
      'src/free.ts': "import { a } from './a.js';\nexport const free = a;\n",
    });
    expect(circularDependency.check(context)).toEqual([
      expect.objectContaining({
        message: 'src/a.ts, src/b.ts and src/c.ts import one another in a cycle of 3 files',
        location: { path: 'src/a.ts', startLine: 3, endLine: 3 },
        // Every other member, at its own first import into the cycle.
        related: [
          { path: 'src/b.ts', startLine: 1, endLine: 1 },
          { path: 'src/c.ts', startLine: 1, endLine: 1 },
        ],
        symbol: 'src/a.ts\nsrc/b.ts\nsrc/c.ts',
        measured: 3,
        limit: null,
      }),
    ]);
  });

  it('does not report a type-only cycle unless the policy counts type-only imports', async () => {
    expect(circularDependency.check(await contextOf(TYPE_CYCLE))).toEqual([]);
    const counted = await contextOf(
      TYPE_CYCLE,
      'forbidden_patterns:\n  circular_dependency:\n    count_type_only_imports: true\n',
    );
    expect(circularDependency.check(counted)).toEqual([
      expect.objectContaining({
        symbol: 'src/c.ts\nsrc/d.ts',
        location: { path: 'src/c.ts', startLine: 1, endLine: 1 },
      }),
    ]);
  });

  it('places the finding at the first import that counts, not at an earlier type-only one', async () => {
    const context = await contextOf({
      'src/a.ts':
        "import type { B } from './b.js';\nimport { b } from './b.js';\nexport const a = (x: B) => b(x);\n",
      'src/b.ts':
        "import { a } from './a.js';\nexport type B = number;\nexport const b = (x: B) => a(x);\n",
    });
    expect(circularDependency.check(context).map((finding) => finding.location)).toEqual([
      { path: 'src/a.ts', startLine: 2, endLine: 2 },
    ]);
  });

  it('reports a file that imports itself', async () => {
    const context = await contextOf({
      'src/self.ts': "export const x = 1;\nexport * from './self.js';\n",
    });
    expect(circularDependency.check(context)).toEqual([
      expect.objectContaining({ message: 'src/self.ts imports itself', measured: 1 }),
    ]);
  });
});
