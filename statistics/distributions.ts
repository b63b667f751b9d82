import gammainc from '@stdlib/math-base-special-gammainc';
import normalCdfOf from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantileOf from '@stdlib/stats-base-dists-normal-quantile';
import tCdfOf from '@stdlib/stats-base-dists-t-cdf';
import tQuantileOf from '@stdlib/stats-base-dists-t-quantile';

/**
 * The distribution functions the analysis needs and simple-statistics lacks (it has no t or χ²
 * distribution functions, and its `probit` is a rational approximation good to ~1e-3). They come
 * from stdlib (@stdlib/stats-base-dists-*, @stdlib/math-base-special-gammainc: built on ports of
 * Boost.Math's incomplete beta and gamma functions, their inverses, and erf/erfinv), checked in
 * test/analysis/statistics.test.ts against published tables to 1e-9.
 *
 * stdlib answers NaN to a bad argument; these wrappers throw a RangeError instead, so a bug in the
 * caller shows where it is rather than as a NaN in a report.
 */

function checkProbability(p: number, name: string): void {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`${name} needs a probability in [0, 1], got ${p}`);
}

function checkDegreesOfFreedom(df: number, name: string): void {
  if (!(df > 0)) throw new RangeError(`${name} needs degrees of freedom > 0, got ${df}`);
}

function checkNumber(x: number, name: string): void {
  if (Number.isNaN(x)) throw new RangeError(`${name} got NaN`);
}

/** Φ(x) = P(Z ≤ x) for the standard normal Z. */
export function normalCdf(x: number): number {
  checkNumber(x, 'normalCdf');
  return normalCdfOf(x, 0, 1);
}

/** Φ⁻¹(p): the x with P(Z ≤ x) = p (−∞ at 0, +∞ at 1). */
export function normalQuantile(p: number): number {
  checkProbability(p, 'normalQuantile');
  return normalQuantileOf(p, 0, 1);
}

/**
 * P(T ≤ x) for Student's t with `df` degrees of freedom (any real df > 0; df = ∞ is the normal).
 * Accurate in the far tails too (it is an incomplete beta function, not 1 − something).
 */
export function studentTCdf(x: number, df: number): number {
  checkNumber(x, 'studentTCdf');
  checkDegreesOfFreedom(df, 'studentTCdf');
  return df === Infinity ? normalCdfOf(x, 0, 1) : tCdfOf(x, df);
}

/** The x with P(T ≤ x) = p for Student's t with `df` degrees of freedom (df = ∞: the normal). */
export function studentTQuantile(p: number, df: number): number {
  checkProbability(p, 'studentTQuantile');
  checkDegreesOfFreedom(df, 'studentTQuantile');
  return df === Infinity ? normalQuantileOf(p, 0, 1) : tQuantileOf(p, df);
}

/**
 * Two-sided p-value of a t statistic: P(|T| ≥ |t|) = 2·P(T ≤ −|t|), computed from the lower tail
 * so that tiny p-values keep their precision. t = ±∞ gives 0.
 */
export function studentTTwoSidedP(t: number, df: number): number {
  checkNumber(t, 'studentTTwoSidedP');
  return Math.min(1, 2 * studentTCdf(-Math.abs(t), df));
}

/**
 * P(χ²_df > x), the upper tail (the p-value of a χ² test), as the regularized upper incomplete
 * gamma function Q(df/2, x/2), computed directly rather than as 1 − CDF.
 */
export function chiSquareSurvival(x: number, df: number): number {
  checkNumber(x, 'chiSquareSurvival');
  checkDegreesOfFreedom(df, 'chiSquareSurvival');
  if (x <= 0) return 1;
  return gammainc(x / 2, df / 2, true, true);
}
