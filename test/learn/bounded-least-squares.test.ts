import { describe, expect, it } from '@jest/globals';
import { boundedLeastSquares } from '../../src/learn/bounded-least-squares.js';

describe('boundedLeastSquares', () => {
  it('finds the exact fit when it lies within the bounds', () => {
    const rows = [
      [1, 0],
      [0, 1],
      [2, 1],
    ];
    const fitted = boundedLeastSquares(rows, [2, 0.5, 4.5], 3);
    expect(fitted[0]).toBeCloseTo(2, 6);
    expect(fitted[1]).toBeCloseTo(0.5, 6);
  });

  it('never goes below 0 nor above the bound, and leaves a column without evidence at 1', () => {
    const rows = [
      [1, -1, 0],
      [2, -2, 0],
      [1, 1, 0],
    ];
    const fitted = boundedLeastSquares(rows, [100, 200, 100], 3);
    expect(fitted).toEqual([3, 0, 1]);
  });
});
