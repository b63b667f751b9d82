import { expect } from 'vitest';
import { chiSquareCritical } from './chi-square.js';
import { CHECK_Z } from './power.js';

/**
 * Comparing two Monte Carlo histograms of the same metric (an engine and an independent
 * implementation): a two-sample χ² over the cells, sparse cells pooled, and the means within
 * 4 combined standard errors.
 */

/** Cells with fewer trials than this (both samples together) are pooled. */
const MIN_CELL = 20;
const Z = CHECK_Z;

/** Two-sample χ² over the same cells: Σ (a·√(Nb/Na) − b·√(Na/Nb))² / (a + b), df = cells − 1. */
export function twoSampleChiSquare(a: readonly number[], b: readonly number[]): { statistic: number; df: number } {
  const cells = a.map((count, i) => [count, b[i] ?? 0] as [number, number]);
  const kept = cells.filter(([x, y]) => x + y >= MIN_CELL);
  const pooled = cells.filter(([x, y]) => x + y < MIN_CELL).reduce<[number, number]>(([x, y], [u, v]) => [x + u, y + v], [0, 0]);
  if (pooled[0] + pooled[1] >= MIN_CELL) kept.push(pooled);
  else if (pooled[0] + pooled[1] > 0 && kept.length > 0) {
    // Too sparse even pooled: fold it into the smallest kept cell.
    const smallest = kept.reduce((best, cell) => (cell[0] + cell[1] < best[0] + best[1] ? cell : best));
    smallest[0] += pooled[0];
    smallest[1] += pooled[1];
  }
  const totalA = kept.reduce((sum, [x]) => sum + x, 0);
  const totalB = kept.reduce((sum, [, y]) => sum + y, 0);
  const ka = Math.sqrt(totalB / totalA);
  const kb = Math.sqrt(totalA / totalB);
  const statistic = kept.reduce((sum, [x, y]) => sum + (x * ka - y * kb) ** 2 / (x + y), 0);
  return { statistic, df: kept.length - 1 };
}

export function meanAndError(counts: readonly number[]): { mean: number; standardError: number } {
  const trials = counts.reduce((sum, count) => sum + count, 0);
  const mean = counts.reduce((sum, count, value) => sum + value * count, 0) / trials;
  const variance = counts.reduce((sum, count, value) => sum + count * (value - mean) ** 2, 0) / (trials - 1);
  return { mean, standardError: Math.sqrt(variance / trials) };
}

export function expectSameMean(label: string, engine: readonly number[], naive: readonly number[]): void {
  const e = meanAndError(engine);
  const n = meanAndError(naive);
  const combined = Math.sqrt(e.standardError ** 2 + n.standardError ** 2);
  expect(Math.abs(e.mean - n.mean), `${label}: engine ${e.mean} vs naive ${n.mean} (combined SE ${combined})`).toBeLessThanOrEqual(
    Z * combined,
  );
}

/**
 * Both checks for one metric: the χ² test at `alpha` (when any cells remain after pooling) and
 * the means within 4 combined SE. For a categorical metric (`winner`) the mean of the codes means
 * nothing, so each outcome's share is compared instead.
 */
export function expectSameDistribution(
  metric: string,
  engine: readonly number[],
  other: readonly number[],
  alpha: number,
  categorical = false,
): void {
  const { statistic, df } = twoSampleChiSquare(engine, other);
  if (df > 0) {
    expect(
      statistic,
      `${metric}: χ² ${statistic.toFixed(1)} on ${df} df\n engine ${engine.join(' ')}\n other  ${other.join(' ')}`,
    ).toBeLessThan(chiSquareCritical(alpha, df));
  }
  if (!categorical) {
    expectSameMean(metric, engine, other);
    return;
  }
  const share = (counts: readonly number[], value: number): number[] => {
    const total = counts.reduce((sum, count) => sum + count, 0);
    return [total - (counts[value] ?? 0), counts[value] ?? 0];
  };
  for (let value = 0; value < engine.length; value++) expectSameMean(`${metric} = ${value}`, share(engine, value), share(other, value));
}

/** A naive implementation's sparse histogram as counts over the engine's cells; no value may fall outside them. */
export function alignedCounts(metric: string, engineCells: number, histogram: Readonly<Record<number, number>>): number[] {
  const outside = Object.keys(histogram).filter((value) => Number(value) >= engineCells);
  expect(outside, `${metric}: naive values outside the engine's range`).toEqual([]);
  return Array.from({ length: engineCells }, (_, value) => histogram[value] ?? 0);
}
