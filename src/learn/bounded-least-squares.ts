/**
 * Least squares with every coefficient kept within [0, upper]: the `m` that minimises
 * Σᵢ (yᵢ − Σⱼ xᵢⱼ mⱼ)². Cyclic coordinate descent: each step sets one coefficient to the exact
 * minimiser along its axis, clamped to its bounds; the objective is convex, so the sweeps
 * converge to the optimum. A column of zeros carries no evidence and keeps its start value, 1.
 */
export function boundedLeastSquares(
  rows: readonly (readonly number[])[],
  targets: readonly number[],
  upper: number,
): number[] {
  const width = rows[0]?.length ?? 0;
  const m = Array.from({ length: width }, () => 1);
  const norms = Array.from({ length: width }, (_, j) =>
    rows.reduce((sum, row) => sum + (row[j] ?? 0) ** 2, 0),
  );
  const residual = rows.map((row, i) => (targets[i] ?? 0) - dot(row, m));
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep += 1) {
    let moved = 0;
    for (let j = 0; j < width; j += 1) {
      const norm = norms[j] ?? 0;
      if (norm === 0) continue;
      const old = m[j] ?? 1;
      const along = rows.reduce((sum, row, i) => sum + (row[j] ?? 0) * (residual[i] ?? 0), 0);
      const next = Math.min(upper, Math.max(0, old + along / norm));
      if (next === old) continue;
      rows.forEach((row, i) => {
        residual[i] = (residual[i] ?? 0) - (row[j] ?? 0) * (next - old);
      });
      m[j] = next;
      moved = Math.max(moved, Math.abs(next - old));
    }
    if (moved < TOLERANCE) break;
  }
  return m;
}

/** Enough for the few categories of a cost, far past what convergence needs. */
const MAX_SWEEPS = 10_000;
const TOLERANCE = 1e-9;

export function dot(a: readonly number[], b: readonly number[]): number {
  return a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
}
