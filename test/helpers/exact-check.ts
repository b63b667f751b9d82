import { expect } from 'vitest';
import type { Tally } from '../../statistics/tally.js';
import { type Distribution, mean, total, variance } from './distribution.js';
import { CHECK_Z } from './power.js';

/**
 * Compare a Monte Carlo histogram with an exact distribution, value by value and on the mean.
 *
 * Per value v (n trials, exact p, estimate p̂): |p̂ − p| ≤ 4·sqrt(p(1 − p)/n). That normal
 * approximation is poor when n·p (or n·(1 − p)) is small — at n·p = 0.05 a single occurrence
 * already breaks it, and that happens 5% of the time — so there, and only there, a
 * count is also accepted when both exact binomial tails at it exceed the one-sided 4σ level
 * (3.17·10⁻⁵). Either way an impossible value (p = 0) must never appear. The mean must lie within
 * 4 standard errors, the SE computed from the exact variance.
 */
const Z = CHECK_Z;
const ONE_SIDED_TAIL_AT_Z = 3.167e-5; // 1 − Φ(4)
const NORMAL_APPROXIMATION_MIN_COUNT = 25;
const EXACT_TOTAL_TOLERANCE = 1e-12;

export interface ExactComparison {
  readonly metric: string;
  readonly exactMean: number;
  readonly estimatedMean: number;
  readonly standardError: number;
}

export interface CompareOptions {
  /** The exact distribution is a single value: skip the non-triviality check, demand p̂ = 1 there. */
  readonly pointMass?: boolean;
}

export function expectMatchesExact(tally: Tally, metric: string, exact: Distribution, options: CompareOptions = {}): ExactComparison {
  const n = tally.trials;
  const histogram = tally.histogram(metric);
  expect(Math.abs(total(exact) - 1), `${metric}: exact distribution sums to ${total(exact)}`).toBeLessThan(EXACT_TOTAL_TOLERANCE);

  const likelyValues = [...exact].filter((p) => p > 0.01).length;
  if (options.pointMass === true) {
    const value = exact.findIndex((p) => p > 1 - EXACT_TOTAL_TOLERANCE);
    expect(value, `${metric}: exact distribution is not a point mass`).toBeGreaterThanOrEqual(0);
    expect(histogram[value], `${metric}: every trial must give ${value}`).toBe(n);
  } else {
    expect(likelyValues, `${metric}: case is trivial (fewer than two values with p > 0.01)`).toBeGreaterThanOrEqual(2);
  }

  const failures: string[] = [];
  for (let v = 0; v < Math.max(histogram.length, exact.length); v++) {
    const p = exact[v] ?? 0;
    const count = histogram[v] ?? 0;
    if (v >= histogram.length && p > 0) {
      failures.push(`value ${v}: p = ${p} but the metric's max is ${histogram.length - 1}`);
      continue;
    }
    if (!countIsPlausible(count, n, p)) {
      const tolerance = Z * Math.sqrt((p * (1 - p)) / n);
      failures.push(`value ${v}: p̂ = ${count / n} (${count}/${n}), exact p = ${p}, tolerance ±${tolerance}`);
    }
  }
  expect(failures, `${metric}: estimate outside the exact distribution's tolerance`).toEqual([]);

  let sum = 0;
  for (let v = 0; v < histogram.length; v++) sum += v * (histogram[v] as number);
  const estimatedMean = sum / n;
  const exactMean = mean(exact);
  const standardError = Math.sqrt(variance(exact) / n);
  if (standardError === 0) {
    expect(estimatedMean, `${metric}: mean`).toBe(exactMean);
  } else {
    expect(
      Math.abs(estimatedMean - exactMean),
      `${metric}: mean ${estimatedMean} vs exact ${exactMean} (SE ${standardError})`,
    ).toBeLessThanOrEqual(Z * standardError);
  }
  return { metric, exactMean, estimatedMean, standardError };
}

function countIsPlausible(count: number, n: number, p: number): boolean {
  if (p === 0) return count === 0;
  if (Math.abs(count / n - p) <= Z * Math.sqrt((p * (1 - p)) / n)) return true;
  if (Math.min(n * p, n * (1 - p)) >= NORMAL_APPROXIMATION_MIN_COUNT) return false;
  return binomialTailAtLeast(count, n, p) > ONE_SIDED_TAIL_AT_Z && binomialTailAtMost(count, n, p) > ONE_SIDED_TAIL_AT_Z;
}

/** P(X ≥ k) for X ~ Binomial(n, p). */
export function binomialTailAtLeast(k: number, n: number, p: number): number {
  return k <= 0 ? 1 : 1 - binomialTailAtMost(k - 1, n, p);
}

/** P(X ≤ k) for X ~ Binomial(n, p), summing the pmf from 0 (used only where n·p is small) or from n. */
export function binomialTailAtMost(k: number, n: number, p: number): number {
  if (k >= n) return 1;
  if (k < 0) return 0;
  if (n * p > n * (1 - p)) return 1 - binomialTailAtMost(n - k - 1, n, 1 - p);
  let pmf = Math.exp(n * Math.log1p(-p));
  let sum = pmf;
  for (let i = 0; i < k; i++) {
    pmf *= ((n - i) / (i + 1)) * (p / (1 - p));
    sum += pmf;
  }
  return Math.min(1, sum);
}
