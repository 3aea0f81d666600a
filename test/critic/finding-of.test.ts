import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { fingerprintOf } from '../../src/critic/finding-of.js';
import { runCritic } from '../../src/critic/run-critic.js';
import { classOfLoc, contextOf } from './critic-support.js';

const LIMIT = 'forbidden_patterns:\n  god_class:\n    max_loc: 6\n';

async function godClassFingerprints(sources: Record<string, string>): Promise<string[]> {
  const findings = runCritic(await contextOf(sources, LIMIT));
  return findings.filter((finding) => finding.ruleId === 'god_class').map((f) => f.fingerprint);
}

describe('fingerprintOf', () => {
  it('is the sha256 of rule, path and symbol joined by NUL', () => {
    const expected = createHash('sha256').update('god_class\0src/a.ts\0Order').digest('hex');
    expect(fingerprintOf('god_class', 'src/a.ts', 'Order')).toBe(expected);
  });

  it('does not confuse triples whose joined text would be the same without a separator', () => {
    expect(fingerprintOf('god_class', 'src/a', '.tsOrder')).not.toBe(
      fingerprintOf('god_class', 'src/a.ts', 'Order'),
    );
  });

  it('stays the same when ten blank lines are inserted above a god class', async () => {
    const before = await godClassFingerprints({ 'src/order.ts': classOfLoc('Order', 7) });
    const after = await godClassFingerprints({
      'src/order.ts': `${'\n'.repeat(10)}${classOfLoc('Order', 7)}`,
    });
    expect(before).toHaveLength(1);
    expect(after).toEqual(before);
  });

  it('differs for another class, the same class in another file, and another rule', async () => {
    const [order] = await godClassFingerprints({ 'src/order.ts': classOfLoc('Order', 7) });
    const [invoice] = await godClassFingerprints({ 'src/order.ts': classOfLoc('Invoice', 7) });
    const [moved] = await godClassFingerprints({ 'src/orders.ts': classOfLoc('Order', 7) });
    expect(new Set([order, invoice, moved]).size).toBe(3);
    expect(order).not.toBe(fingerprintOf('deep_inheritance', 'src/order.ts', 'Order'));
  });
});
