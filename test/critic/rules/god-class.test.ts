import { describe, expect, it } from '@jest/globals';
import { fingerprintOf } from '../../../src/critic/finding-of.js';
import { godClass } from '../../../src/critic/rules/god-class.js';
import { classOfLoc, contextOf } from '../critic-support.js';

const LIMIT = 'forbidden_patterns:\n  god_class:\n    max_loc: 6\n';

describe('god_class', () => {
  it('reports a class one line over max_loc, with its span and figures', async () => {
    const context = await contextOf(
      { 'src/order.ts': `// orders\n${classOfLoc('Order', 7)}` },
      LIMIT,
    );
    expect(godClass.check(context)).toEqual([
      {
        ruleId: 'god_class',
        severity: 'error',
        message:
          'class Order spans 7 lines of code; the limit is 6 (forbidden_patterns.god_class.max_loc)',
        location: { path: 'src/order.ts', startLine: 2, endLine: 8 },
        symbol: 'Order',
        fingerprint: fingerprintOf('god_class', 'src/order.ts', 'Order'),
        measured: 7,
        limit: 6,
        related: [],
      },
    ]);
  });

  it('passes a class of exactly max_loc, however many comments and blank lines it holds', async () => {
    const padded = classOfLoc('Order', 6).replace(
      '{\n',
      '{\n  // a comment\n\n  /* and a block */\n\n',
    );
    const context = await contextOf({ 'src/order.ts': padded }, LIMIT);
    expect(context.project.facts.get('src/order.ts')?.classes[0]?.loc).toBe(6);
    expect(godClass.check(context)).toEqual([]);
  });

  it('leaves test and generated files out', async () => {
    const context = await contextOf(
      {
        'test/order.test.ts': classOfLoc('OrderSuite', 20),
        'src/client.generated.ts': `// @generated\n${classOfLoc('Client', 20)}`,
      },
      LIMIT,
    );
    expect(godClass.check(context)).toEqual([]);
  });

  it('gives two classes of the same name in one file their own symbols', async () => {
    const source = `export namespace A {\n${classOfLoc('Big', 7)}}\nexport namespace B {\n${classOfLoc('Big', 7)}}\n`;
    const context = await contextOf({ 'src/big.ts': source }, LIMIT);
    expect(godClass.check(context).map((finding) => finding.symbol)).toEqual(['Big', 'Big#2']);
  });
});
