import { normalQuantile } from '../../statistics/distributions.js';
import { chiSquareCritical, chiSquareFit, chiSquareSurvival } from './chi-square.js';

/**
 * Sizing a Monte Carlo check by the smallest error it must catch, so that trials are spent where
 * they buy power and nowhere else.
 *
 * Every Monte Carlo check here compares an outcome's share (or a metric's mean) with a reference —
 * an exact probability, or a second sample — and fails beyond Z = 4 standard errors (helpers
 * two-sample.ts, exact-check.ts, enumeration.ts; a false alarm about 1 in 16,000). A true shift δ
 * in a probability p is caught with power 1 − β when
 *
 *   δ ≥ (Z + z₁₋β) · √(p(1 − p)) · √(1/n + 1/m),
 *
 * n trials against m in the reference (m = ∞ for an exact answer); p(1 − p) is largest at p = ½,
 * so sizing there covers every outcome. The χ² test each check also runs covers the whole
 * distribution at once; its power for a single shifted cell is of the same order.
 */

/** The checks' threshold, in standard errors: two-sample.ts and exact-check.ts read it from here. */
export const CHECK_Z = 4;

export interface PowerTarget {
  /** The shift in an outcome's probability that must be caught, e.g. 0.02 (2 percentage points). */
  readonly shift: number;
  /** The chance of catching it (default 0.99). */
  readonly power?: number;
  /** Trials in the reference sample per trial of this one (default: an exact reference, ∞). */
  readonly referenceRatio?: number;
}

/** The fewest trials with which a check catches `shift` in any outcome's probability with `power`. */
export function trialsToCatch({ shift, power = 0.99, referenceRatio = Number.POSITIVE_INFINITY }: PowerTarget): number {
  const spread = ((CHECK_Z + normalQuantile(power)) * 0.5) / shift;
  return Math.ceil(spread * spread * (1 + 1 / referenceRatio));
}

/**
 * How likely a χ² goodness-of-fit test (chi-square.ts `chiSquareFit` at level α) is to reject when
 * the truth differs from the distribution tested: for sizing a test's trials, not for testing.
 *
 * With n trials from a true distribution q tested against p, Pearson's statistic is approximately
 * noncentral χ² on the same df with noncentrality λ = n Σ_bins (q_b − p_b)² / p_b — which is exactly
 * the statistic `chiSquareFit` gives for the expected counts n·q, bins pooled as the test pools them.
 * Power = P(χ²_df(λ) > critical value), the noncentral tail a Poisson(λ/2) mixture of central tails.
 */

/** P(χ²_df(λ) > x) = Σ_j Poisson(j; λ/2) · P(χ²_{df+2j} > x). */
export function noncentralChiSquareSurvival(x: number, df: number, lambda: number): number {
  if (lambda === 0) return chiSquareSurvival(x, df);
  const half = lambda / 2;
  let weight = Math.exp(-half);
  let survival = 0;
  let mass = 0;
  for (let j = 0; j < 100_000; j++) {
    survival += weight * chiSquareSurvival(x, df + 2 * j);
    mass += weight;
    // Past the Poisson mode and with (almost) all the weight counted: the rest cannot matter.
    if (j > half && 1 - mass < 1e-12) break;
    weight *= half / (j + 1);
  }
  return survival;
}

/**
 * Power of `chiSquareFit(histogram, exact, trials)` at level `alpha` when the truth is `truth`
 * rather than `exact` (both as probabilities over the same values).
 */
export function chiSquareFitPower(
  exact: ArrayLike<number>,
  truth: ArrayLike<number>,
  trials: number,
  alpha: number,
): { lambda: number; df: number; power: number } {
  const expected = Array.from({ length: Math.max(exact.length, truth.length) }, (_, v) => trials * (truth[v] ?? 0));
  const { statistic: lambda, df } = chiSquareFit(expected, exact, trials);
  if (df < 1) return { lambda, df, power: 0 };
  return { lambda, df, power: noncentralChiSquareSurvival(chiSquareCritical(alpha, df), df, lambda) };
}

/** `distribution` with `shift` of probability moved from its most likely value to its second most likely. */
export function shiftBetweenLikeliest(distribution: ArrayLike<number>, shift: number): Float64Array {
  const shifted = Float64Array.from(distribution);
  const order = Array.from(shifted.keys()).sort((a, b) => (shifted[b] as number) - (shifted[a] as number) || a - b);
  const [first, second] = order as [number, number];
  if (second === undefined || (shifted[first] as number) < shift) throw new RangeError(`cannot move ${shift} from value ${first}`);
  shifted[first] = (shifted[first] as number) - shift;
  shifted[second] = (shifted[second] as number) + shift;
  return shifted;
}
