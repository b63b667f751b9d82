import { normalCdf } from '../../statistics/distributions.js';
import type { Kernel } from '../../engine/kernel.js';
import { CHECK_Z } from './power.js';

/**
 * Checks of a statistical procedure repeated over many seeds: how often an event (p < 0.05, an
 * interval holding the truth) happened, against the rate it should happen at. The count of n
 * independent repetitions is Binomial(n, rate); a check accepts the counts whose two exact binomial
 * tails both exceed the one-sided tail at CHECK_Z = 4 standard errors (3.2e-5, as exact-check.ts):
 * a false alarm about once in 16,000 checks.
 */

const ONE_SIDED_TAIL = 1 - normalCdf(CHECK_Z);

export interface Band {
  readonly low: number;
  readonly high: number;
}

/**
 * P(X = k), k = 0..n, for X ~ Binomial(n, p): the ratios of successive terms summed in logarithms,
 * so no term underflows on the way (a term below 1e-308 is 0, far below anything a band reads).
 */
function binomialPmf(n: number, p: number): Float64Array {
  const pmf = new Float64Array(n + 1);
  if (p <= 0 || p >= 1) {
    pmf[p <= 0 ? 0 : n] = 1;
    return pmf;
  }
  const odds = Math.log(p) - Math.log1p(-p);
  let log = n * Math.log1p(-p);
  for (let k = 0; k <= n; k++) {
    pmf[k] = Math.exp(log);
    log += Math.log((n - k) / (k + 1)) + odds;
  }
  return pmf;
}

/** The counts of n repetitions a check accepts when the event's true rate is `rate`. */
export function binomialBand(n: number, rate: number): Band {
  const pmf = binomialPmf(n, rate);
  let low = 0;
  for (let below = pmf[0] as number; below <= ONE_SIDED_TAIL; below += pmf[low] as number) low++;
  let high = n;
  for (let above = pmf[n] as number; above <= ONE_SIDED_TAIL; above += pmf[high] as number) high--;
  return { low, high };
}

/** The chance the check fails when the true rate is `rate`: its power to catch that rate. */
export function bandPower(band: Band, n: number, rate: number): number {
  const pmf = binomialPmf(n, rate);
  let outside = 0;
  for (let k = 0; k <= n; k++) if (k < band.low || k > band.high) outside += pmf[k] as number;
  return outside;
}

/** `kernel`, appending metric `metric` of every trial to `into`, in order. */
export function recording(kernel: Kernel, metric: string, into: number[]): Kernel {
  const m = kernel.metrics.findIndex((spec) => spec.name === metric);
  if (m < 0) throw new Error(`no metric ${metric}`);
  return {
    ruleset: kernel.ruleset,
    engineVersion: kernel.engineVersion,
    metrics: kernel.metrics,
    trial(dice, row) {
      kernel.trial(dice, row);
      into.push(row[m] as number);
    },
  };
}

/** The lag-1 autocorrelation of a series: ~N(0, 1/n) when its terms are independent. */
export function lagOneAutocorrelation(series: readonly number[]): number {
  const n = series.length;
  const mean = series.reduce((sum, x) => sum + x, 0) / n;
  let products = 0;
  let squares = 0;
  for (let t = 0; t < n; t++) {
    const centred = (series[t] as number) - mean;
    squares += centred * centred;
    if (t > 0) products += centred * ((series[t - 1] as number) - mean);
  }
  return squares === 0 ? 0 : products / squares;
}
