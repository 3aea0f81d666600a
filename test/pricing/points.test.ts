import { describe, expect, it } from '@jest/globals';
import { roundPoints, sumPoints } from '../../src/pricing/points.js';

describe('points', () => {
  it('rounds to 2 decimals, half away from zero, without negative zero', () => {
    expect(roundPoints(1.005)).toBe(1.01);
    expect(roundPoints(-1.005)).toBe(-1.01);
    expect(roundPoints(2 / 3)).toBe(0.67);
    expect(Object.is(roundPoints(-0.001), 0)).toBe(true);
    expect(roundPoints(Number.NaN)).toBe(0);
  });

  it('sums without binary fractions', () => {
    expect(sumPoints([0.1, 0.2])).toBe(0.3);
  });
});
