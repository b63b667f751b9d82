import { weightedMean, weightedVariance } from 'simple-statistics';
import type { MetricKind, MetricSpec } from '../engine/kernel.js';
import type { Tally } from './tally.js';
import { type Interval, tInterval, wilsonInterval } from './intervals.js';

/**
 * Summary statistics of each metric, computed from a Tally's histograms alone (so a summary of
 * merged shards is the summary of the whole run). Every estimate carries a 95% interval.
 */
export interface ValueProbability {
  readonly value: number;
  /** Category label, or "no"/"yes" for a flag. */
  readonly label?: string;
  readonly count: number;
  readonly probability: number;
  readonly interval: Interval;
}

export interface MetricSummary {
  readonly name: string;
  readonly kind: MetricKind;
  readonly description: string;
  readonly trials: number;
  readonly mean: number;
  /** Sample standard deviation (n − 1); 0 for a single trial. */
  readonly sd: number;
  readonly standardError: number;
  readonly meanInterval: Interval;
  /** P(X = v): every label for a category, both values for a flag, values seen for a count. */
  readonly distribution: readonly ValueProbability[];
  /** P(X ≥ v) for v = 1 … the largest value seen (count metrics only; empty otherwise). */
  readonly atLeast: readonly ValueProbability[];
}

const FLAG_LABELS: readonly string[] = ['no', 'yes'];

function probabilityOf(value: number, count: number, trials: number, label: string | undefined): ValueProbability {
  const estimate = { count, probability: count / trials, interval: wilsonInterval(count, trials) };
  return label === undefined ? { value, ...estimate } : { value, label, ...estimate };
}

/** Mean and sample sd of a histogram (counts[v] = number of trials with value v). */
export function histogramMoments(counts: ArrayLike<number>): { mean: number; sd: number; trials: number } {
  const values: number[] = [];
  const weights: number[] = [];
  let trials = 0;
  for (let v = 0; v < counts.length; v++) {
    const count = counts[v] ?? 0;
    if (count > 0) {
      values.push(v);
      weights.push(count);
      trials += count;
    }
  }
  if (trials === 0) throw new RangeError('cannot summarize a histogram of 0 trials');
  const mean = weightedMean(values, weights);
  // simple-statistics gives the population variance; Bessel's correction makes it the sample one.
  const variance = trials > 1 ? (weightedVariance(values, weights) * trials) / (trials - 1) : 0;
  return { mean, sd: Math.sqrt(Math.max(0, variance)), trials };
}

/**
 * A metric's `distribution` (every label of a category or flag, the values with weight > 0 of a
 * count) and, for a count, `atLeast` (P(X ≥ v), v = 1 … the largest value with weight), from
 * per-value weights — counts of trials or exact probabilities — each entry made by `entry`.
 */
function entriesOf(
  kind: MetricKind,
  weights: ArrayLike<number>,
  labels: readonly string[] | undefined,
  entry: (value: number, weight: number, label: string | undefined) => ValueProbability,
): { distribution: ValueProbability[]; atLeast: ValueProbability[] } {
  const distribution: ValueProbability[] = [];
  const atLeast: ValueProbability[] = [];
  const everyValue = kind === 'category' || kind === 'flag';
  let largest = 0;
  for (let v = 0; v < weights.length; v++) {
    const weight = weights[v] ?? 0;
    if (weight > 0) largest = v;
    if (weight > 0 || everyValue) {
      const label = everyValue ? (labels?.[v] ?? (kind === 'flag' ? FLAG_LABELS[v] : undefined) ?? String(v)) : undefined;
      distribution.push(entry(v, weight, label));
    }
  }
  if (kind === 'count') {
    let tail = 0;
    const tails = new Array<number>(largest + 1).fill(0);
    for (let v = largest; v >= 1; v--) {
      tail += weights[v] ?? 0;
      tails[v] = tail;
    }
    for (let v = 1; v <= largest; v++) atLeast.push(entry(v, tails[v] ?? 0, undefined));
  }
  return { distribution, atLeast };
}

export function summarizeHistogram(
  name: string,
  kind: MetricKind,
  description: string,
  counts: ArrayLike<number>,
  labels?: readonly string[],
): MetricSummary {
  const { mean, sd, trials } = histogramMoments(counts);
  const { distribution, atLeast } = entriesOf(kind, counts, labels, (value, count, label) => probabilityOf(value, count, trials, label));
  const standardError = sd / Math.sqrt(trials);
  // A t interval (n − 1 df; the normal one at Monte Carlo sizes). Every metric lies in 0..max, so
  // its mean does too: clip to that range (which also bounds the unbounded interval of 1 trial).
  const t = tInterval(mean, sd, trials);
  const interval = { low: Math.max(0, t.low), high: Math.min(counts.length - 1, t.high) };
  return { name, kind, description, trials, mean, sd, standardError, meanInterval: interval, distribution, atLeast };
}

/** Summaries of every metric of the tally, in the kernel's metric order. */
export function summarize(tally: Tally): MetricSummary[] {
  return tally.metrics.map((metric, m) => {
    const counts = tally.counts[m];
    if (counts === undefined) throw new Error(`tally has no histogram for metric ${metric.name}`);
    return summarizeHistogram(metric.name, metric.kind, metric.description, counts, metric.labels);
  });
}

/**
 * Summaries of exact distributions (`probabilities[m][v]` = P(metric m = v), from sim/exact.ts): the
 * same shape as a Monte Carlo summary, with no sampling error — every interval is the value itself,
 * sd is the distribution's own, and `trials` and counts are 0 (nothing was sampled).
 */
export function summarizeExact(metrics: readonly MetricSpec[], probabilities: readonly Float64Array[]): MetricSummary[] {
  return metrics.map((metric, m) => {
    const p = probabilities[m];
    if (p === undefined) throw new Error(`no distribution for metric ${metric.name}`);
    let mean = 0;
    for (let v = 0; v < p.length; v++) mean += v * (p[v] as number);
    let variance = 0;
    for (let v = 0; v < p.length; v++) variance += (p[v] as number) * (v - mean) ** 2;
    const { distribution, atLeast } = entriesOf(metric.kind, p, metric.labels, (value, probability, label) => {
      const exactly = { value, count: 0, probability, interval: { low: probability, high: probability } };
      return label === undefined ? exactly : { ...exactly, label };
    });
    const sd = Math.sqrt(Math.max(0, variance));
    return {
      name: metric.name,
      kind: metric.kind,
      description: metric.description,
      trials: 0,
      mean,
      sd,
      standardError: 0,
      meanInterval: { low: mean, high: mean },
      distribution,
      atLeast,
    };
  });
}

/** A ValueProbability as JSON: an exact one sampled nothing, so it has no count (a 0 would read as data). */
function entryJson(entry: ValueProbability, exact: boolean): Record<string, unknown> {
  if (!exact) return { ...entry };
  const { count: _sampledNothing, ...rest } = entry;
  return rest;
}

/**
 * A metric summary as `crucible run --json` writes it. An exact one (summarizeExact) sampled nothing:
 * its `trials` is null and its probabilities carry no `count`, rather than zeros that look like data.
 */
export function metricSummaryJson(summary: MetricSummary, exact: boolean): Record<string, unknown> {
  if (!exact) return { ...summary };
  return {
    ...summary,
    trials: null,
    distribution: summary.distribution.map((entry) => entryJson(entry, true)),
    atLeast: summary.atLeast.map((entry) => entryJson(entry, true)),
  };
}
