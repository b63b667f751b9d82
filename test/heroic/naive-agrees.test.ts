import { describe, expect, it } from 'vitest';
import { runNaive } from './naive.js';
import { compileBenchScenario } from './bench-scenarios.js';
import { runTrials } from '../../sim/run.js';
import { trialsToCatch } from '../helpers/power.js';

/**
 * Differential test: the engine and the deliberately naive implementation of the bench scenarios
 * (test/heroic/naive.ts) are two independent readings of the same rules, so with independent
 * seeds their estimates must agree within sampling error; the pooled attack is also checked against
 * its exact mean. "Agree" = within 4 combined standard errors (a false alarm ~1 in 16,000).
 * Power: a 2-percentage-point difference in P(knights win) is caught with probability ≥ 0.99
 * (helpers/power.ts); the naive side is the slow one, so the engine runs 4 times its trials.
 */

const ENGINE_PER_NAIVE = 4;
const NAIVE_TRIALS = trialsToCatch({ shift: 0.02, referenceRatio: ENGINE_PER_NAIVE });
const ENGINE_TRIALS = ENGINE_PER_NAIVE * NAIVE_TRIALS;
const Z = 4;

interface Estimate {
  readonly mean: number;
  readonly standardError: number;
}

/** Mean and standard error of the mean from (value, count) pairs. */
function estimate(counts: Iterable<readonly [number, number]>): Estimate {
  let trials = 0;
  let sum = 0;
  let sumOfSquares = 0;
  for (const [value, count] of counts) {
    trials += count;
    sum += value * count;
    sumOfSquares += value * value * count;
  }
  const mean = sum / trials;
  const variance = (sumOfSquares - trials * mean * mean) / (trials - 1);
  return { mean, standardError: Math.sqrt(variance / trials) };
}

const fromHistogram = (histogram: Float64Array): Array<[number, number]> => Array.from(histogram, (count, value) => [value, count]);

const fromRecord = (histogram: Record<number, number> | undefined): Array<[number, number]> =>
  Object.entries(histogram ?? {}).map(([value, count]) => [Number(value), count]);

/** The indicator "metric == value" as (0/1, count) pairs. */
const indicator = (pairs: Array<[number, number]>, wanted: number): Array<[number, number]> =>
  pairs.map(([value, count]) => [value === wanted ? 1 : 0, count]);

function expectAgreement(engine: Estimate, naive: Estimate): void {
  const combined = Math.sqrt(engine.standardError ** 2 + naive.standardError ** 2);
  expect(Math.abs(engine.mean - naive.mean), `engine ${engine.mean} vs naive ${naive.mean} (combined SE ${combined})`).toBeLessThanOrEqual(
    Z * combined,
  );
}

/**
 * Exact mean Wounds of 12 dice vs DEF 4 (S), MIGHT 20: per die 0 (1–3), 1 (4–5), 2 (6) (rulings §1),
 * convolved over 12 dice; one Shield die on 5+ cancels 1 Wound when ≥ 1 was rolled (rulings §2);
 * Wounds above MIGHT are lost (rulings §5).
 */
function exactPooledMean(): number {
  const perDie = [3 / 6, 2 / 6, 1 / 6];
  let distribution = [1];
  for (let die = 0; die < 12; die++) {
    const next = new Array<number>(distribution.length + 2).fill(0);
    distribution.forEach((p, wounds) => {
      perDie.forEach((q, added) => {
        next[wounds + added] = (next[wounds + added] ?? 0) + p * q;
      });
    });
    distribution = next;
  }
  let mean = 0;
  distribution.forEach((p, wounds) => {
    if (wounds === 0) return;
    mean += p * ((2 / 3) * Math.min(wounds, 20) + (1 / 3) * Math.min(wounds - 1, 20));
  });
  return mean;
}

describe('engine and naive implementation agree', () => {
  it('pooled 12-die attack: mean Wounds, and the exact mean', () => {
    const engineTally = runTrials(compileBenchScenario('pooled'), { seed: 20240611, trials: ENGINE_TRIALS });
    const naive = runNaive('pooled', 977, NAIVE_TRIALS);
    const engine = estimate(fromHistogram(engineTally.histogram('A.woundsDealt')));
    const naiveEstimate = estimate(fromRecord(naive.histograms['A.woundsDealt']));
    expect(engineTally.trials).toBe(ENGINE_TRIALS);
    expect(naive.trials).toBe(NAIVE_TRIALS);
    expectAgreement(engine, naiveEstimate);

    // Closed form without the MIGHT cap: 12 × 2/3 = 8 rolled, minus P(shield 5+ and ≥ 1 Wound).
    const closedForm = 8 - (1 / 3) * (1 - 0.5 ** 12);
    const exact = exactPooledMean();
    expect(Math.abs(exact - closedForm)).toBeLessThan(1e-4);
    expect(Math.abs(engine.mean - exact)).toBeLessThanOrEqual(Z * engine.standardError);
    expect(Math.abs(naiveEstimate.mean - exact)).toBeLessThanOrEqual(Z * naiveEstimate.standardError);
  });

  it('engagement: P(knights win) and mean rounds', () => {
    const engineTally = runTrials(compileBenchScenario('engagement'), { seed: 20240612, trials: ENGINE_TRIALS });
    const naive = runNaive('engagement', 978, NAIVE_TRIALS);
    const engineWinner = fromHistogram(engineTally.histogram('winner'));
    const naiveWinner = fromRecord(naive.histograms.winner);
    expectAgreement(estimate(indicator(engineWinner, 1)), estimate(indicator(naiveWinner, 1)));
    expectAgreement(estimate(indicator(engineWinner, 2)), estimate(indicator(naiveWinner, 2)));
    expectAgreement(estimate(fromHistogram(engineTally.histogram('rounds'))), estimate(fromRecord(naive.histograms.rounds)));
  });
});
