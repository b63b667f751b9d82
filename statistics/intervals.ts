import { studentTQuantile } from './distributions.js';

/**
 * Confidence intervals used to report Monte Carlo estimates. Both are 95% two-sided intervals:
 * z is the 0.975 quantile of the standard normal distribution. Wilson's, which a run's stop rule
 * also reads, lives in statistics/wilson.ts.
 */
export { type Interval, wilsonInterval, Z_95 } from './wilson.js';
import { type Interval, Z_95 } from './wilson.js';

/** Normal-approximation interval for a mean: mean ± z·sd/√n (fine at Monte Carlo sample sizes). */
export function meanInterval(trials: number, mean: number, standardDeviation: number, z: number = Z_95): Interval {
  if (!(trials > 0)) throw new RangeError(`meanInterval needs trials > 0, got ${trials}`);
  const halfWidth = (z * standardDeviation) / Math.sqrt(trials);
  return { low: mean - halfWidth, high: mean + halfWidth };
}

/**
 * Student t interval for a mean: mean ± t(0.975, n − 1)·sd/√n, from the sample sd (n − 1 divisor)
 * of n observations. At Monte Carlo sizes it is the normal interval (t(0.975, 10⁵) = 1.95999);
 * at small n it is the honest, wider one.
 *
 * Degenerate cases, chosen to avoid NaN: n < 2 has no sd estimate, so the interval is (−∞, +∞)
 * (callers clip it to the range the quantity can take); sd = 0 with n ≥ 2 (every observation
 * equal) gives the zero-width interval [mean, mean], as the formula does.
 */
export function tInterval(mean: number, sd: number, n: number): Interval {
  if (!(n >= 1) || !Number.isFinite(mean) || !(sd >= 0)) {
    throw new RangeError(`tInterval needs n ≥ 1, a finite mean and sd ≥ 0, got mean ${mean}, sd ${sd}, n ${n}`);
  }
  if (n < 2) return { low: -Infinity, high: Infinity };
  if (sd === 0) return { low: mean, high: mean };
  const halfWidth = (studentTQuantile(0.975, n - 1) * sd) / Math.sqrt(n);
  return { low: mean - halfWidth, high: mean + halfWidth };
}
