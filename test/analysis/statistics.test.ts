import { mean as plainMean, sampleVariance } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import {
  chiSquareSurvival,
  normalCdf,
  normalQuantile,
  studentTCdf,
  studentTQuantile,
  studentTTwoSidedP,
} from '../../statistics/distributions.js';
import { meanInterval, wilsonInterval } from '../../statistics/intervals.js';
import { comparePaired, type PairedChannelComparison, tInterval } from '../../statistics/paired.js';
import { summarizeHistogram } from '../../statistics/summary.js';
import { StreamDice, seedGenerator, streamDice } from '../../engine/dice/index.js';
import type { Kernel, MetricSpec } from '../../engine/kernel.js';
import { compileSpec, kernelSpecOf } from '../../sim/kernel-spec.js';
import { runPaired, runUnpaired } from '../../sim/paired-run.js';
import { PairedTally } from '../../statistics/paired-tally.js';
import { loadScenarioFile } from '../../input/scenario-file.js';

const SEED = 20261122;

describe('Student t distribution', () => {
  // Quantiles t(p, df) to 9 decimals: the NIST/SEMATECH e-Handbook of Statistical Methods,
  // §1.3.6.7.2 "Critical values of the Student's t distribution" (to 3 decimals), carried to 9
  // decimals as printed by R's qt() (Hill 1970, CACM algorithm 396).
  const published: [p: number, df: number, t: number][] = [
    [0.975, 1, 12.706204736],
    [0.975, 2, 4.30265273],
    [0.975, 5, 2.570581836],
    [0.975, 10, 2.228138852],
    [0.975, 20, 2.085963447],
    [0.975, 30, 2.042272456],
    [0.975, 60, 2.000297822],
    [0.975, 120, 1.979930405],
    [0.995, 10, 3.169272673],
    [0.95, 10, 1.812461123],
  ];

  it.each(published)('t(%f, %i) = %f, and its CDF is back at p', (p, df, t) => {
    expect(Math.abs(studentTQuantile(p, df) - t)).toBeLessThan(1e-9);
    expect(Math.abs(studentTCdf(t, df) - p)).toBeLessThan(1e-9);
    expect(studentTQuantile(1 - p, df)).toBeCloseTo(-studentTQuantile(p, df), 12);
  });

  it('matches the closed forms for 1 df (Cauchy) and 2 df', () => {
    for (const x of [-30, -2.5, -0.3, 0, 0.7, 4, 100]) {
      expect(studentTCdf(x, 1)).toBeCloseTo(0.5 + Math.atan(x) / Math.PI, 13);
      expect(studentTCdf(x, 2)).toBeCloseTo(0.5 + x / (2 * Math.sqrt(2 + x * x)), 13);
    }
    for (const p of [0.001, 0.2, 0.5, 0.9, 0.975]) {
      expect(studentTQuantile(p, 1)).toBeCloseTo(Math.tan(Math.PI * (p - 0.5)), 9);
      expect(studentTQuantile(p, 2)).toBeCloseTo((2 * p - 1) / Math.sqrt(2 * p * (1 - p)), 10);
    }
  });

  it('tends to the normal as df grows, and is the normal at df = ∞', () => {
    // Cornish–Fisher: t(p, ν) ≈ z + (z³ + z)/(4ν) for large ν.
    const z = normalQuantile(0.975);
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(z + (z ** 3 + z) / 4e6, 10);
    expect(studentTQuantile(0.975, Infinity)).toBe(z);
    expect(studentTCdf(1.5, Infinity)).toBe(normalCdf(1.5));
  });

  it('two-sided p-values keep their precision in the tail', () => {
    expect(studentTTwoSidedP(0, 7)).toBe(1);
    expect(studentTTwoSidedP(-2.228138852, 10)).toBeCloseTo(0.05, 9);
    expect(studentTTwoSidedP(2.228138852, 10)).toBeCloseTo(0.05, 9);
    // 1 df: P(|T| ≥ t) = 1 − 2·atan(t)/π = 2·atan(1/t)/π, far below 1e-16 where 1 − CDF would be 0.
    expect(studentTTwoSidedP(1e20, 1) / ((2 * Math.atan(1e-20)) / Math.PI)).toBeCloseTo(1, 9);
    expect(studentTTwoSidedP(-Infinity, 3)).toBe(0);
  });

  it('refuses bad arguments instead of returning NaN', () => {
    expect(() => studentTQuantile(1.2, 3)).toThrow(RangeError);
    expect(() => studentTQuantile(0.5, 0)).toThrow(RangeError);
    expect(() => studentTCdf(Number.NaN, 3)).toThrow(RangeError);
    expect(() => normalQuantile(-0.1)).toThrow(RangeError);
    expect(() => chiSquareSurvival(1, -1)).toThrow(RangeError);
  });
});

describe('standard normal distribution', () => {
  // Abramowitz & Stegun (1964), Table 26.1 (P(x) to 15 decimals) and Table 26.5 (percentage points).
  it('quantiles', () => {
    expect(Math.abs(normalQuantile(0.975) - 1.959963985)).toBeLessThan(1e-9);
    expect(Math.abs(normalQuantile(0.995) - 2.575829304)).toBeLessThan(1e-9);
    expect(Math.abs(normalQuantile(0.9995) - 3.290526731)).toBeLessThan(1e-9);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0.025)).toBeCloseTo(-normalQuantile(0.975), 14);
    expect(normalQuantile(1)).toBe(Infinity);
  });

  it('CDF', () => {
    expect(Math.abs(normalCdf(1) - 0.841344746068543)).toBeLessThan(1e-14);
    expect(Math.abs(normalCdf(2) - 0.977249868051821)).toBeLessThan(1e-14);
    // Q(5) = 2.866515718791939e-7: relative precision in the tail.
    expect(normalCdf(-5) / 2.866515718791939e-7).toBeCloseTo(1, 12);
    expect(normalCdf(normalQuantile(0.975))).toBeCloseTo(0.975, 15);
  });
});

describe('χ² survival function', () => {
  it('matches the closed forms for 1 and 2 df', () => {
    for (const x of [0.1, 1, 3.84, 10, 60]) {
      expect(chiSquareSurvival(x, 2) / Math.exp(-x / 2)).toBeCloseTo(1, 12);
      expect(chiSquareSurvival(x, 1) / (2 * normalCdf(-Math.sqrt(x)))).toBeCloseTo(1, 10);
    }
    expect(chiSquareSurvival(0, 4)).toBe(1);
  });

  it('gives 0.05 at the published 5% critical values', () => {
    // NIST/SEMATECH e-Handbook §1.3.6.7.4, upper 5% points, to 9 significant digits (R's qchisq).
    expect(Math.abs(chiSquareSurvival(3.841458821, 1) - 0.05)).toBeLessThan(1e-9);
    expect(Math.abs(chiSquareSurvival(18.30703805, 10) - 0.05)).toBeLessThan(1e-9);
    expect(Math.abs(chiSquareSurvival(124.3421134, 100) - 0.05)).toBeLessThan(1e-9);
  });
});

describe('tInterval', () => {
  it('is mean ± t(0.975, n − 1)·sd/√n', () => {
    const interval = tInterval(5, 2, 11);
    const half = (2.228138852 * 2) / Math.sqrt(11);
    expect(interval.low).toBeCloseTo(5 - half, 8);
    expect(interval.high).toBeCloseTo(5 + half, 8);
  });

  it('is the normal interval at Monte Carlo sizes', () => {
    const t = tInterval(3, 1.5, 100_000);
    const normal = meanInterval(100_000, 3, 1.5);
    // t(0.975, 99999) / z(0.975) = 1 + 1.2e-5.
    expect((t.high - 3) / (normal.high - 3)).toBeCloseTo(1 + 1.2e-5, 6);
    expect(t.low - 3).toBeCloseTo(3 - t.high, 12);
  });

  it('is unbounded for one observation and a point for no spread, never NaN', () => {
    expect(tInterval(2, 0, 1)).toEqual({ low: -Infinity, high: Infinity });
    expect(tInterval(2, 0, 50)).toEqual({ low: 2, high: 2 });
    expect(() => tInterval(2, -1, 5)).toThrow(RangeError);
  });
});

/**
 * Interval coverage by simulation. Replication k draws from streamDice(SEED, k) (here built by
 * jumping one generator k times, which is what streamDice does); the coverage of R = 2,000
 * replications estimates the true coverage with standard error √(0.95·0.05/R) ≈ 0.0049, so a
 * correct 95% interval lands in 0.95 ± 4 SE = [0.9305, 0.9695] (outside by chance: ~6e-5).
 * The rates measured with SEED are noted above each test.
 */
const REPLICATIONS = 2000;
const coverageSe = (coverage: number): number => Math.sqrt((coverage * (1 - coverage)) / REPLICATIONS);
const BAND_LOW = 0.95 - 4 * coverageSe(0.95);
const BAND_HIGH = 0.95 + 4 * coverageSe(0.95);

function coverage(covers: (dice: StreamDice) => boolean): number {
  const rng = seedGenerator(SEED);
  let covered = 0;
  for (let k = 0; k < REPLICATIONS; k++) {
    if (covers(new StreamDice(rng))) covered++;
    rng.jump();
  }
  return covered / REPLICATIONS;
}

/** Does the Wilson interval the summary reports for a flag of n trials with P(yes) = p cover p? */
function wilsonCovers(dice: StreamDice, n: number, p: number, yes: (dice: StreamDice) => boolean): boolean {
  const counts = [0, 0];
  for (let i = 0; i < n; i++) counts[yes(dice) ? 1 : 0]! += 1;
  const interval = summarizeHistogram('x', 'flag', '', counts).distribution[1]!.interval;
  return interval.low <= p && p <= interval.high;
}

/** Does the mean interval the summary reports for n draws of a count cover its true mean? */
function meanCovers(dice: StreamDice, n: number, max: number, trueMean: number, draw: (dice: StreamDice) => number): boolean {
  const counts = new Array<number>(max + 1).fill(0);
  for (let i = 0; i < n; i++) counts[draw(dice)]! += 1;
  const interval = summarizeHistogram('x', 'count', '', counts).meanInterval;
  return interval.low <= trueMean && trueMean <= interval.high;
}

/** P(Wilson interval of Binomial(n, p) covers p), summed over the binomial distribution. */
function exactWilsonCoverage(n: number, p: number): number {
  let total = 0;
  let logChoose = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logChoose += Math.log((n - k + 1) / k);
    const interval = wilsonInterval(k, n);
    if (interval.low <= p && p <= interval.high) total += Math.exp(logChoose + k * Math.log(p) + (n - k) * Math.log1p(-p));
  }
  return total;
}

const uniform0to5 = (dice: StreamDice): number => dice.d6() - 1; // mean 2.5, symmetric
const sixesIn4 = (dice: StreamDice): number =>
  (dice.d6() === 6 ? 1 : 0) + (dice.d6() === 6 ? 1 : 0) + (dice.d6() === 6 ? 1 : 0) + (dice.d6() === 6 ? 1 : 0); // mean 2/3, skewed

describe('95% interval coverage, by simulation', () => {
  it('replication k draws the dice of streamDice(SEED, k)', () => {
    const rng = seedGenerator(SEED);
    for (let k = 0; k < 3; k++) rng.jump();
    const built = new StreamDice(rng);
    const reference = streamDice(SEED, 3);
    for (let i = 0; i < 8; i++) expect(built.next()).toBe(reference.next());
  });

  // Measured: 0.9595, 0.9435.
  it.each([
    [1000, 3, 10],
    [1000, 1, 20],
  ])('Wilson, n = %i, p = %i/%i: within 0.95 ± 4 SE', (n, successes, outOf) => {
    const rate = coverage((dice) => wilsonCovers(dice, n, successes / outOf, (d) => d.below(outOf) < successes));
    expect(rate).toBeGreaterThan(BAND_LOW);
    expect(rate).toBeLessThan(BAND_HIGH);
  });

  // Measured: 0.9550. At small n the Wilson coverage oscillates with p (Brown, Cai & DasGupta 2001,
  // Statistical Science 16:101–133, Fig. 4: between ~0.92 and ~0.98 at n = 20); averaged over a
  // uniform p it is 0.953 at n = 20 (by the exact sum below, over a fine grid of p).
  it('Wilson, n = 20, p drawn uniformly per replication: within 0.95 ± 4 SE', () => {
    const scale = 1 << 20;
    const rate = coverage((dice) => {
      const numerator = 1 + dice.below(scale - 1); // p = numerator / 2^20 in (0, 1)
      return wilsonCovers(dice, 20, numerator / scale, (d) => d.below(scale) < numerator);
    });
    expect(rate).toBeGreaterThan(BAND_LOW);
    expect(rate).toBeLessThan(BAND_HIGH);
  });

  // Measured: 0.9405 against the exact 0.9298 (1.9 SE): a point where Wilson is known to under-cover.
  it('Wilson, n = 30, p = 0.3: within 4 SE of its exact coverage (binomial sum)', () => {
    const exact = exactWilsonCoverage(30, 0.3);
    const rate = coverage((dice) => wilsonCovers(dice, 30, 0.3, (d) => d.below(10) < 3));
    expect(Math.abs(rate - exact)).toBeLessThan(4 * coverageSe(exact));
  });

  // Measured: 0.9580, 0.9420.
  it.each([
    ['uniform 0..5', 10, 5, 2.5, uniform0to5],
    ['sixes in 4 dice', 1000, 4, 2 / 3, sixesIn4],
  ] as const)('t interval of the mean, %s, n = %i: within 0.95 ± 4 SE', (_name, n, max, trueMean, draw) => {
    const rate = coverage((dice) => meanCovers(dice, n, max, trueMean, draw));
    expect(rate).toBeGreaterThan(BAND_LOW);
    expect(rate).toBeLessThan(BAND_HIGH);
  });

  // Measured: t 0.9455, normal 0.8840 (their true coverages here are ~0.940 and ~0.875).
  it('at n = 5 the t interval covers far better than the normal one, which falls below the band', () => {
    const sums = (dice: StreamDice): { mean: number; sd: number } => {
      const xs = Array.from({ length: 5 }, () => uniform0to5(dice));
      return { mean: plainMean(xs), sd: Math.sqrt(sampleVariance(xs)) };
    };
    const covers = (interval: { low: number; high: number }): boolean => interval.low <= 2.5 && 2.5 <= interval.high;
    const t = coverage((dice) => {
      const { mean, sd } = sums(dice);
      return covers(tInterval(mean, sd, 5));
    });
    const normal = coverage((dice) => {
      const { mean, sd } = sums(dice);
      return covers(meanInterval(5, mean, sd));
    });
    expect(normal).toBeLessThan(BAND_LOW);
    // t covers whenever the normal interval does, so t − normal is the share of replications only t
    // covers (~0.065, SE ~0.0055): 0.04 is 4.5 SE below it.
    expect(t - normal).toBeGreaterThan(0.04);
  });
});

const COUNT: MetricSpec[] = [{ name: 'x', kind: 'count', max: 100, description: '' }];

function channel(comparisons: readonly PairedChannelComparison[], name: string): PairedChannelComparison {
  const found = comparisons.find((comparison) => comparison.name === name);
  if (found === undefined) throw new Error(`no channel ${name}`);
  return found;
}

describe('comparePaired', () => {
  it("reproduces Student's paired t test on the sleep data", () => {
    // Cushny & Peebles' hours of extra sleep under two drugs (Student 1908), as in R's
    // example(t.test): paired t = −4.0621, df = 9, p = 0.002833, 95% CI [−2.4598858, −0.7001142].
    // Stored in tenths of an hour, shifted by +20 to be counts; the difference is in tenths.
    const drug1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
    const drug2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
    const tally = new PairedTally(COUNT);
    drug1.forEach((x, i) => tally.add(Int32Array.of(Math.round(x * 10) + 20), Int32Array.of(Math.round(drug2[i]! * 10) + 20)));
    const { difference, a, b } = channel(comparePaired(tally), 'x');
    expect(difference.mean).toBeCloseTo(-15.8, 12);
    expect(difference.t).toBeCloseTo(-4.0621, 4);
    expect(difference.pValue).toBeCloseTo(0.002833, 6);
    expect(difference.interval.low).toBeCloseTo(-24.598858, 5);
    expect(difference.interval.high).toBeCloseTo(-7.001142, 5);
    const differences = drug1.map((x, i) => Math.round(x * 10) - Math.round(drug2[i]! * 10));
    expect(difference.variance).toBeCloseTo(sampleVariance(differences), 10);
    expect(a.variance).toBeCloseTo(sampleVariance(drug1.map((x) => Math.round(x * 10))), 10);
    expect(b.mean).toBeCloseTo(plainMean(drug2) * 10 + 20, 10);
  });

  it('finds a known shift, and the noise pairing removes (a = d₁ + d₂, b = d₁ + d₃ + 1)', () => {
    const dice = streamDice(SEED);
    const tally = new PairedTally(COUNT);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const shared = dice.d6();
      a.push(shared + dice.d6());
      b.push(shared + dice.d6() + 1);
      tally.add(Int32Array.of(a[i]!), Int32Array.of(b[i]!));
    }
    const result = channel(comparePaired(tally), 'x');
    const differences = a.map((x, i) => x - b[i]!);
    expect(result.difference.mean).toBeCloseTo(plainMean(differences), 12);
    expect(result.difference.variance).toBeCloseTo(sampleVariance(differences), 9);
    expect(result.difference.interval.low).toBeLessThan(-1);
    expect(result.difference.interval.high).toBeGreaterThan(-1);
    expect(result.difference.pValue).toBeLessThan(1e-100);
    // var(a) = var(b) = var(d₂ − d₃) = 35/6: pairing halves the variance of the difference.
    expect(result.unpairedTrialsFactor).toBeCloseTo(2, 1);
    expect(result.unpairedStandardError / result.pairedStandardError).toBeCloseTo(Math.sqrt(result.unpairedTrialsFactor), 12);
    expect(result.kind).toBe('count');
  });

  it('a shift that never varies: difference −1 exactly, p = 0, factor ∞, no NaN', () => {
    const dice = streamDice(SEED);
    const tally = new PairedTally(COUNT);
    for (let i = 0; i < 1000; i++) {
      const x = dice.d6() + dice.d6();
      tally.add(Int32Array.of(x), Int32Array.of(x + 1));
    }
    const { difference, unpairedTrialsFactor } = channel(comparePaired(tally), 'x');
    expect(difference).toMatchObject({ mean: -1, variance: 0, standardError: 0, t: -Infinity, pValue: 0 });
    expect(difference.interval).toEqual({ low: -1, high: -1 });
    expect(unpairedTrialsFactor).toBe(Infinity);
  });

  it('one trial, and no trials', () => {
    const tally = new PairedTally(COUNT);
    expect(() => comparePaired(tally)).toThrow(RangeError);
    tally.add(Int32Array.of(3), Int32Array.of(5));
    const result = channel(comparePaired(tally), 'x');
    expect(result.difference).toMatchObject({ mean: -2, variance: 0, pValue: 1, t: 0 });
    expect(result.difference.interval).toEqual({ low: -Infinity, high: Infinity });
    expect(result.a.interval).toEqual({ low: 0, high: 100 });
  });
});

describe('common random numbers on a bundled case (Sylvan Knights against an Ogre, formation vs singly)', () => {
  const load = async (name: string): Promise<Kernel> =>
    compileSpec(kernelSpecOf(await loadScenarioFile(`data/heroic/scenarios/${name}.yaml`)));
  const TRIALS = 20_000;

  it('identical variants: every difference 0 with p = 1, and no NaN', async () => {
    const tally = runPaired(await load('sylvan-knights-formation'), await load('sylvan-knights-formation'), { seed: SEED, trials: TRIALS });
    const comparisons = comparePaired(tally);
    for (const comparison of comparisons) {
      expect(comparison.difference).toMatchObject({ mean: 0, variance: 0, t: 0, pValue: 1 });
      expect(comparison.difference.interval).toEqual({ low: 0, high: 0 });
      expect(comparison.a).toEqual(comparison.b);
      // ∞ where the metric varies (pairing removes all its noise), 1 where it is constant.
      expect(comparison.unpairedTrialsFactor).toBe(comparison.a.variance > 0 ? Infinity : 1);
      expect(JSON.stringify(comparison)).not.toContain('NaN');
      expect(Object.values(comparison).some((value) => typeof value === 'number' && Number.isNaN(value))).toBe(false);
    }
    expect(channel(comparisons, 'winner=Sylvan Knights').unpairedTrialsFactor).toBe(Infinity);
  });

  // Measured (20,000 trials, seed 20261122, outcomes drawn from tables, pairing version 2): the
  // formation wins 0.746 of the time, one by one 0.622 (difference +0.124, p ≈ 7e-234); var(a − b)
  // is 0.279 paired and 0.423 unpaired, an unpairedTrialsFactor of 1.52 (wounds taken: 1.014
  // against 1.553, factor 1.50). Only 1.5: the pooled attack and the three single ones use the
  // shared dice differently, so their outcomes are only partly correlated.
  it.each(['winner=Sylvan Knights', 'ogre.woundsTaken'])('%s: the paired difference varies less than the unpaired one', async (name) => {
    const formation = await load('sylvan-knights-formation');
    const singly = await load('sylvan-knights-singly');
    const paired = channel(comparePaired(runPaired(formation, singly, { seed: SEED, trials: TRIALS })), name);
    const unpaired = channel(comparePaired(runUnpaired(formation, singly, { seed: SEED, trials: TRIALS })), name);
    expect(paired.difference.variance).toBeLessThan(unpaired.difference.variance);
    expect(paired.unpairedTrialsFactor).toBeGreaterThan(1.1);
    // Without pairing, the difference's variance is var(a) + var(b) (their covariance is ~0).
    expect(unpaired.unpairedTrialsFactor).toBeCloseTo(1, 1);
    expect(paired.difference.mean).toBeGreaterThan(0);
    expect(paired.difference.pValue).toBeLessThan(1e-10);
  });
});
