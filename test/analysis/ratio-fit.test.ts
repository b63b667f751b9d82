import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { describe, expect, it } from 'vitest';
import { Z_95 } from '../../analysis/intervals.js';
import { fitRatio, type RatioObservation, ratioScore } from '../../analysis/ratio-fit.js';
import { seedGenerator } from '../../engine/dice/index.js';
import { CHECK_Z } from '../helpers/power.js';

/**
 * Synthetic truth: a unit whose fair cost is COST points a model scores logistic(β·ln(k·COST/Pₒ))
 * with k models against an opponent fielding Pₒ points — opponents fielding a little more or less
 * than the 100-point budget, as whole models do. Each trial is a win, a draw or a loss, with draws
 * most common in even fights (so the per-trial variance is below score(1 − score)). With misfit,
 * each opponent also shifts the unit's log-odds by its own amount (it counters the unit, or is
 * countered), the same at every count; the cost the fit should find is still COST, where the
 * average opponent is even.
 */

const SEED = 20261122;
const COST = 30;
const BETA = 1.5;
const OPPONENT_POINTS = [92, 96, 100, 104, 110, 98];
const COUNTS = [2, 3, 4, 5];
const TRIALS = 400;
/** P(draw) in an even fight. */
const EVEN_DRAW = 0.3;
/** With misfit: the SD of each opponent's shift of the unit's log-odds. */
const OPPONENT_SHIFT_SD = 0.3;
const REPLICATIONS = 400;

const logit = (p: number) => Math.log(p / (1 - p));
const trueScore = (count: number, opponentPoints: number, shift = 0) => 1 / (1 + Math.exp(-(BETA * Math.log((count * COST) / opponentPoints) + shift)));
/** P(draw) at a true score s: most likely in an even fight, never making P(win) or P(loss) negative. */
const drawChance = (score: number) => EVEN_DRAW * 4 * score * (1 - score);

function normal(rng: RandomGenerator): number {
  const u = uniformFloat64(rng);
  const v = uniformFloat64(rng);
  return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
}

function observe(rng: RandomGenerator, opponent: string, count: number, opponentPoints: number, shift: number): RatioObservation {
  const score = trueScore(count, opponentPoints, shift);
  const draw = drawChance(score);
  const win = score - draw / 2;
  let [wins, draws] = [0, 0];
  for (let trial = 0; trial < TRIALS; trial++) {
    const u = uniformFloat64(rng);
    if (u < win) wins++;
    else if (u < win + draw) draws++;
  }
  const losses = TRIALS - wins - draws;
  const mean = (wins + draws / 2) / TRIALS;
  const variance = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / (TRIALS - 1);
  return { opponent, count, opponentPoints, score: mean, variance, trials: TRIALS };
}

function sample(rng: RandomGenerator, shiftSd: number): RatioObservation[] {
  return OPPONENT_POINTS.flatMap((points, o) => {
    const shift = shiftSd * normal(rng);
    return COUNTS.map((count) => observe(rng, `opponent-${o}`, count, points, shift));
  });
}

function expectCoverage(covered: number, trials: number, what: string): void {
  const tolerance = CHECK_Z * Math.sqrt(trials * 0.95 * 0.05);
  expect(Math.abs(covered - 0.95 * trials), `${what}: ${covered} of ${trials} covered`).toBeLessThanOrEqual(tolerance);
}

const replicated = new Map<number, { covered: number; logWidth: number; dispersion: number }>();

/** Coverage, mean interval width (log scale) and mean dispersion over REPLICATIONS samples (computed once per shift). */
function replicate(shiftSd: number) {
  const known = replicated.get(shiftSd);
  if (known !== undefined) return known;
  const rng = seedGenerator(SEED);
  let [covered, logWidth, dispersion] = [0, 0, 0];
  for (let replication = 0; replication < REPLICATIONS; replication++) {
    const fit = fitRatio(sample(rng, shiftSd));
    if (fit.costInterval.low <= COST && COST <= fit.costInterval.high) covered++;
    logWidth += Math.log(fit.costInterval.high / fit.costInterval.low) / REPLICATIONS;
    dispersion += fit.dispersion / REPLICATIONS;
  }
  const result = { covered, logWidth, dispersion };
  replicated.set(shiftSd, result);
  return result;
}

describe('score against the points ratio', () => {
  it('finds the exact curve from exact scores, and scores ½ at its cost', () => {
    const observations = OPPONENT_POINTS.flatMap((points, o) =>
      COUNTS.map((count) => {
        const score = trueScore(count, points);
        const draw = drawChance(score);
        return { opponent: `o${o}`, count, opponentPoints: points, score, variance: score * (1 - score) - draw / 4, trials: TRIALS };
      }),
    );
    const fit = fitRatio(observations);
    expect(fit.beta).toBeCloseTo(BETA, 9);
    expect(fit.alpha).toBeCloseTo(BETA * Math.log(COST), 9);
    expect(fit.cost).toBeCloseTo(COST, 7);
    expect(fit.dispersion).toBeLessThan(1e-12);
    expect(fit.degreesOfFreedom).toBe(observations.length - 2);
    expect(ratioScore(fit, 4, 4 * fit.cost)).toBeCloseTo(0.5, 12);
    fit.fitted.forEach((score, i) => expect(score).toBeCloseTo(observations[i]?.score as number, 9));
  });

  it('solves the weighted estimating equations, with the noise-only interval of the delta method', () => {
    const observations = sample(seedGenerator(SEED), 0);
    const fit = fitRatio(observations);
    expect(fit.intervalBasis).toBe('simulation-noise');
    // Oracle: the quasi-likelihood equations Σ ∂μ/∂θ · (y − μ)/Var(y) = 0, with ∂μ/∂θ by finite differences.
    const weights = observations.map((o) => o.trials / o.variance);
    const mu = (alpha: number, beta: number, o: RatioObservation) => 1 / (1 + Math.exp(-(alpha + beta * Math.log(o.count / o.opponentPoints))));
    const h = 1e-6;
    const derivatives = observations.map((o) => [(mu(fit.alpha + h, fit.beta, o) - mu(fit.alpha - h, fit.beta, o)) / (2 * h), (mu(fit.alpha, fit.beta + h, o) - mu(fit.alpha, fit.beta - h, o)) / (2 * h)] as const);
    const equation = (k: 0 | 1) => observations.reduce((sum, o, i) => sum + (derivatives[i]?.[k] as number) * (weights[i] as number) * (o.score - mu(fit.alpha, fit.beta, o)), 0);
    // A 1% error in β would leave these at 10² or more.
    expect(Math.abs(equation(0))).toBeLessThan(1e-4);
    expect(Math.abs(equation(1))).toBeLessThan(1e-4);
    // Delta method on ln c = α/β with the inverse information: Fieller's interval is close to it when β is precise.
    const [a, b, d] = observations.reduce(([sa, sb, sd], _, i) => {
      const [da, db] = derivatives[i] as readonly [number, number];
      const w = weights[i] as number;
      return [sa + w * da * da, sb + w * da * db, sd + w * db * db];
    }, [0, 0, 0]);
    const determinant = a * d - b * b;
    const [vaa, vab, vbb] = [d / determinant, -b / determinant, a / determinant];
    const gradient = [1 / fit.beta, -fit.alpha / fit.beta ** 2] as const;
    const logCostSe = Math.sqrt(gradient[0] ** 2 * vaa + 2 * gradient[0] * gradient[1] * vab + gradient[1] ** 2 * vbb);
    expect(Math.log(fit.costInterval.high / fit.costInterval.low)).toBeCloseTo(2 * Z_95 * logCostSe, 3);
    expect(Math.log(fit.costInterval.high * fit.costInterval.low) / 2).toBeCloseTo(Math.log(fit.cost), 3);
  });

  it('covers the true cost about 95% of the time when only simulation noise is present', () => {
    const { covered, dispersion } = replicate(0);
    expectCoverage(covered, REPLICATIONS, 'noise only');
    // Draws counted as what they are, the dispersion is about 1 (its mean has sd √(2/df/R) ≈ 0.015).
    expect(Math.abs(dispersion - 1)).toBeLessThan(CHECK_Z * Math.sqrt(2 / (OPPONENT_POINTS.length * COUNTS.length - 2) / REPLICATIONS));
  });

  it('widens the interval when opponents disagree about the unit, and still covers about 95%', () => {
    const noise = replicate(0);
    const misfit = replicate(OPPONENT_SHIFT_SD);
    expect(misfit.dispersion).toBeGreaterThan(4);
    expect(misfit.logWidth).toBeGreaterThan(3 * noise.logWidth);
    expectCoverage(misfit.covered, REPLICATIONS, 'opponents disagree');
  });

  it('treats a score no trial departed from as uncertain by about 1 in the trials, not as exact', () => {
    const observations = sample(seedGenerator(SEED), 0);
    const certain = [...observations, { opponent: 'opponent-0', count: 20, opponentPoints: 100, score: 1, variance: 0, trials: TRIALS }];
    const fit = fitRatio(certain);
    expect(Number.isFinite(fit.cost) && fit.cost > 0).toBe(true);
    expect(Math.abs(logit(fit.fitted.at(-1) as number))).toBeLessThan(20);
  });

  it('refuses what cannot give a cost, saying why', () => {
    const at = (count: number, score: number): RatioObservation => ({ opponent: 'x', count, opponentPoints: 100, score, variance: 0.2, trials: 1000 });
    expect(() => fitRatio([at(2, 0.3), at(4, 0.6)])).toThrow(/at least 3 observations/);
    expect(() => fitRatio([at(3, 0.3), at(3, 0.5), at(3, 0.6)])).toThrow(/at least 2 different points ratios/);
    expect(() => fitRatio([at(2, 0.6), at(3, 0.5), at(4, 0.4)])).toThrow(/does not rise with count/);
    expect(() => fitRatio([at(2, 0.49), at(3, 0.5), at(4, 0.5), at(5, 0.51)])).toThrow(/does not rise significantly with count/);
    expect(() => fitRatio([at(2, 1.2), at(3, 0.5), at(4, 0.6)])).toThrow(/observations\[0\]\.score must be in \[0, 1\]/);
    expect(() => fitRatio([at(0, 0.2), at(3, 0.5), at(4, 0.6)])).toThrow(/observations\[0\]\.count must be a number of models > 0/);
    expect(() => fitRatio([{ ...at(2, 0.2), trials: 0 }, at(3, 0.5), at(4, 0.6)])).toThrow(/trials must be at least 1/);
    expect(() => ratioScore(fitRatio([at(2, 0.2), at(3, 0.5), at(4, 0.8)]), 0, 100)).toThrow(RangeError);
  });
});
