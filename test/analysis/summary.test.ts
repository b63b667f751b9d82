import { mean as plainMean, probit, sampleStandardDeviation } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { meanInterval, tInterval, wilsonInterval, Z_95 } from '../../statistics/intervals.js';
import { histogramMoments, summarize, summarizeHistogram } from '../../statistics/summary.js';
import type { MetricSpec } from '../../engine/kernel.js';
import { Tally } from '../../statistics/tally.js';

describe('wilsonInterval', () => {
  // Newcombe RG (1998), "Two-sided confidence intervals for the single proportion: comparison of
  // seven methods", Statistics in Medicine 17:857–872, Table II, method 3 (score interval).
  const published: [successes: number, trials: number, low: number, high: number][] = [
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ];

  it.each(published)('%i of %i → [%f, %f] (Newcombe 1998)', (successes, trials, low, high) => {
    const interval = wilsonInterval(successes, trials);
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });

  it('is exactly 0 or 1 at the edges, and symmetric', () => {
    expect(wilsonInterval(0, 100).low).toBe(0);
    expect(wilsonInterval(100, 100).high).toBe(1);
    const a = wilsonInterval(30, 100);
    const b = wilsonInterval(70, 100);
    expect(a.low).toBeCloseTo(1 - b.high, 12);
    expect(a.high).toBeCloseTo(1 - b.low, 12);
  });

  it('rejects impossible counts', () => {
    expect(() => wilsonInterval(5, 0)).toThrow(RangeError);
    expect(() => wilsonInterval(6, 5)).toThrow(RangeError);
  });

  it('uses the 97.5% normal quantile', () => {
    // simple-statistics' probit is an approximation (good to ~3e-3 here); Z_95 is the exact value.
    expect(probit(0.975)).toBeCloseTo(Z_95, 2);
  });
});

describe('meanInterval', () => {
  it('is mean ± z·sd/√n', () => {
    const interval = meanInterval(100, 5, 2);
    expect(interval.low).toBeCloseTo(5 - (Z_95 * 2) / 10, 12);
    expect(interval.high).toBeCloseTo(5 + (Z_95 * 2) / 10, 12);
  });
});

/** The raw data a histogram stands for. */
function expand(counts: readonly number[]): number[] {
  return counts.flatMap((count, value) => new Array<number>(count).fill(value));
}

describe('histogram moments', () => {
  const histograms: number[][] = [
    [3, 0, 5, 1, 0, 0, 2],
    [0, 0, 0, 7],
    [1, 1],
    [10, 20, 30, 25, 10, 4, 1],
  ];

  it.each(histograms)('agree with simple-statistics on the expanded data %#', (...counts) => {
    const data = expand(counts);
    const moments = histogramMoments(counts);
    expect(moments.trials).toBe(data.length);
    expect(moments.mean).toBeCloseTo(plainMean(data), 12);
    expect(moments.sd).toBeCloseTo(sampleStandardDeviation(data), 12);
  });

  it('a single trial has sd 0', () => {
    expect(histogramMoments([0, 1])).toEqual({ mean: 1, sd: 0, trials: 1 });
  });

  it('refuses an empty histogram', () => {
    expect(() => histogramMoments([0, 0])).toThrow(RangeError);
  });
});

describe('summarize', () => {
  const metrics: MetricSpec[] = [
    { name: 'winner', kind: 'category', max: 2, labels: ['none', 'Knights', 'Ogre'], description: 'who won' },
    { name: 'rounds', kind: 'count', max: 4, description: 'rounds' },
    { name: 'ogre.vanquished', kind: 'flag', max: 1, description: 'ogre dead' },
  ];
  const rows = [
    [1, 2, 1],
    [1, 3, 1],
    [2, 4, 0],
    [1, 2, 1],
    [0, 4, 0],
  ];
  const tally = new Tally(metrics);
  for (const row of rows) tally.add(Int32Array.from(row));
  const [winner, rounds, vanquished] = summarize(tally);

  it('gives every category label, even unseen ones', () => {
    expect(winner?.distribution.map((entry) => [entry.label, entry.count])).toEqual([
      ['none', 1],
      ['Knights', 3],
      ['Ogre', 1],
    ]);
    expect(winner?.distribution[1]?.probability).toBeCloseTo(0.6, 12);
    expect(winner?.distribution[1]?.interval).toEqual(wilsonInterval(3, 5));
  });

  it('gives both values of a flag', () => {
    expect(vanquished?.distribution.map((entry) => [entry.label, entry.count])).toEqual([
      ['no', 2],
      ['yes', 3],
    ]);
    expect(vanquished?.atLeast).toEqual([]);
  });

  it('gives seen values and tail probabilities of a count', () => {
    expect(rounds?.distribution.map((entry) => [entry.value, entry.count])).toEqual([
      [2, 2],
      [3, 1],
      [4, 2],
    ]);
    expect(rounds?.atLeast.map((entry) => [entry.value, entry.count])).toEqual([
      [1, 5],
      [2, 5],
      [3, 3],
      [4, 2],
    ]);
    expect(rounds?.atLeast[2]?.interval).toEqual(wilsonInterval(3, 5));
  });

  it('computes mean, sd, standard error and the mean interval from the histogram', () => {
    const data = rows.map((row) => row[1] as number);
    expect(rounds?.mean).toBeCloseTo(plainMean(data), 12);
    expect(rounds?.sd).toBeCloseTo(sampleStandardDeviation(data), 12);
    expect(rounds?.standardError).toBeCloseTo(sampleStandardDeviation(data) / Math.sqrt(5), 12);
    const normal = tInterval(plainMean(data), sampleStandardDeviation(data), 5);
    expect(rounds?.meanInterval.low).toBeCloseTo(normal.low, 12);
    expect(rounds?.meanInterval.high).toBeCloseTo(Math.min(4, normal.high), 12);
  });

  it('clips the mean interval to the metric range', () => {
    const summary = summarizeHistogram('rare', 'count', '', [999, 1]);
    expect(summary.meanInterval.low).toBe(0);
  });

  it('is the same for a tally built in two merged halves', () => {
    const first = new Tally(metrics);
    const second = new Tally(metrics);
    for (const [i, row] of rows.entries()) (i < 2 ? first : second).add(Int32Array.from(row));
    first.merge(second);
    expect(summarize(first)).toEqual(summarize(tally));
  });
});
