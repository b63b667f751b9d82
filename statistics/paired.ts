import type { PairedTally } from './paired-tally.js';
import { studentTTwoSidedP } from './distributions.js';
import { type Interval, tInterval, wilsonInterval } from './intervals.js';

export { tInterval } from './intervals.js';

/**
 * Paired comparisons of two variants run with common random numbers (sim/paired-run.ts), computed
 * from a PairedTally's sums alone (n, Σa, Σb, Σa², Σb², Σab per channel), never from rows.
 *
 * For each channel — a count metric's value, or the indicator of a category label or flag — it
 * gives both variants' means with 95% intervals (Wilson for indicators, t for counts) and the mean
 * of the paired difference d = a − b with its 95% t interval and the two-sided p-value of the
 * paired t test (n − 1 degrees of freedom). The difference's variance comes from the sums:
 * Σd = Σa − Σb and Σd² = Σa² + Σb² − 2Σab (exact while the sums stay below 2⁵³, as integer sums do).
 *
 * How much pairing saved: var(d) = var(a) + var(b) − 2·cov(a, b). Had the variants been run on
 * independent dice, the difference of the means would have variance (var(a) + var(b)) / n, so
 * `unpairedTrialsFactor` = (var(a) + var(b)) / var(d) is how many times more trials an unpaired
 * comparison would need for an interval as narrow as the paired one.
 */

/** A variant's mean on one channel. */
export interface VariantMean {
  readonly mean: number;
  /** Sample variance (n − 1 divisor); 0 for a single trial. */
  readonly variance: number;
  /** 95%: Wilson for an indicator, t (clipped to 0..the metric's max) for a count. */
  readonly interval: Interval;
}

/** The paired difference a − b on one channel. */
export interface PairedDifference {
  /** mean(a − b) = mean(a) − mean(b). */
  readonly mean: number;
  /** Sample variance of a − b (n − 1 divisor); 0 for a single trial. */
  readonly variance: number;
  /** sd(a − b)/√n. */
  readonly standardError: number;
  /** 95% t interval, n − 1 df: mean ± t(0.975, n − 1)·standardError. */
  readonly interval: Interval;
  /** mean / standardError (0 when both are 0, ±∞ when only the standard error is). */
  readonly t: number;
  /** Two-sided p-value of the paired t test of mean(a − b) = 0. */
  readonly pValue: number;
}

export interface PairedChannelComparison {
  /** `metric` for a count, `metric=label` for a category label or a flag's "yes" (as in PairedTally). */
  readonly name: string;
  readonly kind: 'count' | 'indicator';
  readonly trials: number;
  readonly a: VariantMean;
  readonly b: VariantMean;
  readonly difference: PairedDifference;
  /** sd(a − b)/√n: the standard error of the difference with common random numbers. */
  readonly pairedStandardError: number;
  /** √(var(a)/n + var(b)/n): what it would be with independent dice. */
  readonly unpairedStandardError: number;
  /**
   * (var(a) + var(b)) / var(a − b): how many times more trials an unpaired comparison needs for the
   * same interval width. Above 1 when the variants' outcomes are positively correlated (what
   * common random numbers are for), below 1 if negatively. When var(a − b) = 0: Infinity if the
   * variants vary (pairing removes all the noise), 1 if neither does (nothing to remove).
   */
  readonly unpairedTrialsFactor: number;
}

/** Sample variance (n − 1) from n, Σx, Σx²; ≥ 0 (rounding can leave a hair below), 0 for n = 1. */
function varianceOf(n: number, sum: number, sumOfSquares: number): number {
  if (n < 2) return 0;
  return Math.max(0, (sumOfSquares - (sum * sum) / n) / (n - 1));
}

function differenceOf(n: number, sum: number, sumOfSquares: number): PairedDifference {
  const mean = sum / n;
  const variance = varianceOf(n, sum, sumOfSquares);
  const sd = Math.sqrt(variance);
  const standardError = sd / Math.sqrt(n);
  const interval = tInterval(mean, sd, n);
  if (n < 2) return { mean, variance, standardError, interval, t: 0, pValue: 1 };
  if (standardError === 0) {
    // Every trial gave the same difference: none at all (identical variants: p = 1), or the same
    // nonzero one (a certain difference: t = ±∞, p = 0).
    return mean === 0
      ? { mean, variance, standardError, interval, t: 0, pValue: 1 }
      : { mean, variance, standardError, interval, t: mean > 0 ? Infinity : -Infinity, pValue: 0 };
  }
  const t = mean / standardError;
  return { mean, variance, standardError, interval, t, pValue: studentTTwoSidedP(t, n - 1) };
}

function variantMean(indicator: boolean, max: number, n: number, sum: number, sumOfSquares: number): VariantMean {
  const mean = sum / n;
  const variance = varianceOf(n, sum, sumOfSquares);
  if (indicator) return { mean, variance, interval: wilsonInterval(sum, n) };
  const t = tInterval(mean, Math.sqrt(variance), n);
  return { mean, variance, interval: { low: Math.max(0, t.low), high: Math.min(max, t.high) } };
}

/** The difference the other way round, b − a: the mirrored interval, the same p-value. */
export function reversedDifference(difference: PairedDifference): PairedDifference {
  // 0 − x rather than −x: a difference of 0 stays +0, never prints as "-0".
  const negated = (x: number): number => 0 - x;
  return {
    mean: negated(difference.mean),
    variance: difference.variance,
    standardError: difference.standardError,
    interval: { low: negated(difference.interval.high), high: negated(difference.interval.low) },
    t: negated(difference.t),
    pValue: difference.pValue,
  };
}

/** The comparison of every channel of the tally, in the tally's channel order. */
export function comparePaired(tally: PairedTally): PairedChannelComparison[] {
  const n = tally.trials;
  if (!(n > 0)) throw new RangeError('cannot compare a paired tally of 0 trials');
  return tally.channels.map((channel, c) => {
    const { sumA, sumB, sumA2, sumB2, sumAB } = tally.channelSums(c);
    const indicator = channel.value >= 0;
    const max = tally.metrics[channel.metric]?.max ?? Infinity;
    const a = variantMean(indicator, max, n, sumA, sumA2);
    const b = variantMean(indicator, max, n, sumB, sumB2);
    const difference = differenceOf(n, sumA - sumB, sumA2 + sumB2 - 2 * sumAB);
    const unpairedVariance = a.variance + b.variance;
    const unpairedTrialsFactor = difference.variance > 0 ? unpairedVariance / difference.variance : unpairedVariance > 0 ? Infinity : 1;
    return {
      name: channel.name,
      kind: indicator ? 'indicator' : 'count',
      trials: n,
      a,
      b,
      difference,
      pairedStandardError: difference.standardError,
      unpairedStandardError: Math.sqrt(unpairedVariance / n),
      unpairedTrialsFactor,
    };
  });
}
