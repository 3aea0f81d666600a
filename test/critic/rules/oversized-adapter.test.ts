import { describe, expect, it } from '@jest/globals';
import { oversizedAdapter } from '../../../src/critic/rules/oversized-adapter.js';
import { codeLines, contextOf } from '../critic-support.js';

const LIMIT = 'forbidden_patterns:\n  oversized_adapter:\n    max_loc: 5\n';

describe('oversized_adapter', () => {
  it('reports an adapter file one code line over max_loc, as the whole file', async () => {
    const context = await contextOf(
      { 'src/adapters/http.ts': `// the HTTP adapter\n\n${codeLines(6)}` },
      LIMIT,
    );
    expect(oversizedAdapter.check(context)).toEqual([
      expect.objectContaining({
        ruleId: 'oversized_adapter',
        message:
          'adapter src/adapters/http.ts holds 6 lines of code; the limit is 5 (forbidden_patterns.oversized_adapter.max_loc)',
        location: { path: 'src/adapters/http.ts', startLine: 1, endLine: 8 },
        symbol: 'src/adapters/http.ts',
        measured: 6,
        limit: 5,
      }),
    ]);
  });

  it('matches every adapter glob, including a name ending in Adapter', async () => {
    const context = await contextOf({ 'lib/StripeAdapter.ts': codeLines(6) }, LIMIT);
    expect(oversizedAdapter.check(context).map((finding) => finding.symbol)).toEqual([
      'lib/StripeAdapter.ts',
    ]);
  });

  it('passes exactly max_loc code lines with comments, other files, and generated adapters', async () => {
    const context = await contextOf(
      {
        'src/adapters/http.ts': `/**\n * Long\n * comment\n */\n${codeLines(5)}\n\n`,
        'src/core/big.ts': codeLines(50),
        'src/adapters/client.generated.ts': `// @generated\n${codeLines(50)}`,
        'src/adapters/http.test.ts': codeLines(50),
      },
      LIMIT,
    );
    expect(oversizedAdapter.check(context)).toEqual([]);
  });
});
