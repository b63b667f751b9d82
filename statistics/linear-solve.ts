/**
 * The inverse of a small dense square matrix, by Gauss–Jordan elimination with partial pivoting
 * (the price list's delta method inverts one n × n Jacobian, n the roster's entries). Undefined when
 * the matrix is singular to working precision. Written here because no dependency of the project
 * solves dense systems (statistics/davidson.ts has its own Cholesky for the symmetric case).
 */
export function invertMatrix(matrix: readonly (readonly number[])[]): number[][] | undefined {
  const n = matrix.length;
  const work = matrix.map((row, i) => {
    if (row.length !== n) throw new RangeError(`invertMatrix needs a square matrix, row ${i} has ${row.length} of ${n}`);
    return [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))];
  });
  const scale = Math.max(...matrix.flat().map(Math.abs), 0);
  for (let column = 0; column < n; column++) {
    let pivot = column;
    for (let row = column + 1; row < n; row++) if (Math.abs(work[row]?.[column] ?? 0) > Math.abs(work[pivot]?.[column] ?? 0)) pivot = row;
    const pivotValue = work[pivot]?.[column] ?? 0;
    if (!(Math.abs(pivotValue) > 1e-13 * scale)) return undefined;
    [work[column], work[pivot]] = [work[pivot] as number[], work[column] as number[]];
    const pivotRow = work[column] as number[];
    for (let j = 0; j < 2 * n; j++) pivotRow[j] = (pivotRow[j] as number) / pivotValue;
    for (let row = 0; row < n; row++) {
      if (row === column) continue;
      const current = work[row] as number[];
      const factor = current[column] as number;
      if (factor === 0) continue;
      for (let j = 0; j < 2 * n; j++) current[j] = (current[j] as number) - factor * (pivotRow[j] as number);
    }
  }
  return work.map((row) => row.slice(n));
}
