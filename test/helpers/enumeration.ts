import { expect } from 'vitest';
import type { Kernel } from '../../engine/kernel.js';
import { EXACT_BUDGET, exactDistributions } from '../../sim/exact.js';
import { chiSquareCritical, chiSquareFit } from './chi-square.js';

/**
 * Exact enumeration (sim/exact.ts) in tests: one trial of a kernel built with method `tables`, every
 * path within `--method exact`'s budget, and the two checks made of it — equality with an
 * independent oracle, and a Monte Carlo histogram's fit to it.
 */
export interface Enumerated {
  readonly paths: number;
  /** P(metric = v) for v = 0..max, by metric name. */
  probabilities(metric: string): Float64Array;
}

export function enumerate(kernel: Kernel, label = 'the trial'): Enumerated {
  const exact = exactDistributions(kernel, EXACT_BUDGET);
  if (exact === undefined) throw new Error(`${label}: too many paths to enumerate`);
  return {
    paths: exact.paths,
    probabilities(metric) {
      const distribution = exact.probabilities[kernel.metrics.findIndex((spec) => spec.name === metric)];
      if (distribution === undefined) throw new Error(`${label}: no metric ${metric}`);
      return distribution;
    },
  };
}

/** Two exact distributions equal value by value within `tolerance` (missing values are 0). */
export function expectSameProbabilities(label: string, actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance: number): void {
  for (let v = 0; v < Math.max(actual.length, expected.length); v++) {
    expect(Math.abs((actual[v] ?? 0) - (expected[v] ?? 0)), `${label} = ${v}`).toBeLessThan(tolerance);
  }
}

/**
 * A Monte Carlo histogram of `trials` trials against an exact distribution: no impossible value
 * seen, a Pearson χ² over the whole distribution below its α critical value, and the mean within
 * `z` standard errors (from the exact variance) of the exact mean.
 */
export function expectFitsExact(
  label: string,
  histogram: ArrayLike<number>,
  exact: ArrayLike<number>,
  trials: number,
  alpha = 1e-6,
  z = 4,
): void {
  let mean = 0;
  let second = 0;
  for (let v = 0; v < exact.length; v++) {
    mean += (exact[v] ?? 0) * v;
    second += (exact[v] ?? 0) * v * v;
  }
  for (let v = 0; v < histogram.length; v++)
    if ((histogram[v] ?? 0) > 0) expect(exact[v] ?? 0, `${label}: value ${v} happened but is impossible`).toBeGreaterThan(0);
  const { statistic, df } = chiSquareFit(histogram, exact, trials);
  if (df >= 1) expect(statistic, `${label}: χ² ${statistic.toFixed(1)} on ${df} df`).toBeLessThan(chiSquareCritical(alpha, df));
  let sum = 0;
  for (let v = 0; v < histogram.length; v++) sum += v * (histogram[v] ?? 0);
  const standardError = Math.sqrt(Math.max(0, second - mean * mean) / trials);
  const difference = Math.abs(sum / trials - mean);
  if (standardError === 0) expect(difference, `${label}: a certain value`).toBeLessThan(1e-12);
  else expect(difference, `${label}: mean ${sum / trials} vs exact ${mean} (SE ${standardError})`).toBeLessThanOrEqual(z * standardError);
}
