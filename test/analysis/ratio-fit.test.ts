import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../analysis/intervals.js';
import { fitRatio, type OpponentIntercept, type RatioFit, type RatioObservation, ratioScore } from '../../analysis/ratio-fit.js';
import { seedGenerator } from '../../engine/dice/index.js';
import { CHECK_Z } from '../helpers/power.js';

/**
 * Synthetic truth: against opponent o fielding Pₒ points (a little more or less than the 100-point
 * budget, as whole models do), k models of a unit score sₒ(k) = logistic(shiftₒ + βₒ·ln(k·COST/Pₒ)).
 * The shift is how much o counters the unit (or is countered): some opponents are lopsided, scoring
 * ~0 or ~1 at every count tried, so that their samples are all losses or all wins. With one slope
 * βₒ = BETA for all this is the fitted model; with misfit each opponent has its own slope. The true
 * fair cost c* is where the average opponent is even at equal points (k = Pₒ/c):
 * mean over o of logistic(shiftₒ + βₒ·ln(COST/c*)) = ½, found here by bisection on the truth.
 * Each trial is a win, a draw or a loss, draws most common in even fights (so the per-trial
 * variance is below s(1 − s)).
 */

const SEED = 20261122;
const COST = 30;
const BETA = 1.5;
const OPPONENT_POINTS = [92, 96, 100, 104, 110, 98];
/** How much each opponent shifts the unit's log-odds: the first and last are lopsided (scores ~0.0001 and ~0.999). */
const SHIFTS = [-9, -0.6, 0.2, 0.5, 1.0, 7];
const COUNTS = [2, 3, 4, 5];
const TRIALS = 400;
/** P(draw) in an even fight. */
const EVEN_DRAW = 0.3;
/** With misfit: the SD of each opponent's slope, relative to BETA. */
const SLOPE_SD = 0.5;
const REPLICATIONS = 400;

const logistic = (z: number) => 1 / (1 + Math.exp(-z));
/** P(draw) at a true score s: most likely in an even fight, never making P(win) or P(loss) negative. */
const drawChance = (score: number) => EVEN_DRAW * 4 * score * (1 - score);

interface Truth {
  readonly points: readonly number[];
  readonly shifts: readonly number[];
  readonly slopes: readonly number[];
}

const trueScore = (truth: Truth, o: number, count: number) => logistic((truth.shifts[o] as number) + (truth.slopes[o] as number) * Math.log((count * COST) / (truth.points[o] as number)));

/** c* of the truth, by bisection on the mean score at equal points (it falls as the cost rises). */
function trueCost(truth: Truth): number {
  const mean = (cost: number) => truth.shifts.reduce((sum, shift, o) => sum + logistic(shift + (truth.slopes[o] as number) * Math.log(COST / cost)), 0) / truth.shifts.length;
  let [low, high] = [1, 1000];
  for (let step = 0; step < 200; step++) [low, high] = mean((low + high) / 2) > 0.5 ? [(low + high) / 2, high] : [low, (low + high) / 2];
  return (low + high) / 2;
}

function normal(rng: RandomGenerator): number {
  const u = uniformFloat64(rng);
  const v = uniformFloat64(rng);
  return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
}

function observe(rng: RandomGenerator, truth: Truth, o: number, count: number): RatioObservation {
  const score = trueScore(truth, o, count);
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
  return { opponent: `opponent-${o}`, count, opponentPoints: truth.points[o] as number, score: mean, variance, trials: TRIALS };
}

const sample = (rng: RandomGenerator, truth: Truth) => truth.points.flatMap((_, o) => COUNTS.map((count) => observe(rng, truth, o, count)));
const covers = (fit: RatioFit, cost: number) => fit.costInterval.low <= cost && cost <= fit.costInterval.high;

function expectCoverage(covered: number, trials: number, what: string): void {
  const tolerance = CHECK_Z * Math.sqrt(trials * 0.95 * 0.05);
  expect(Math.abs(covered - 0.95 * trials), `${what}: ${covered} of ${trials} covered`).toBeLessThanOrEqual(tolerance);
}

const sharedSlope: Truth = { points: OPPONENT_POINTS, shifts: SHIFTS, slopes: SHIFTS.map(() => BETA) };
const oneOpponent: Truth = { points: [96], shifts: [0.3], slopes: [BETA] };

/** Coverage, mean log-width of the interval and mean dispersion over REPLICATIONS samples; with misfit, each sample draws its opponents' slopes. */
function replicate(truthOf: (rng: RandomGenerator) => Truth) {
  const rng = seedGenerator(SEED);
  let [covered, logWidth, dispersion, dispersionBasis] = [0, 0, 0, 0];
  for (let replication = 0; replication < REPLICATIONS; replication++) {
    const truth = truthOf(rng);
    const fit = fitRatio(sample(rng, truth));
    if (covers(fit, trueCost(truth))) covered++;
    logWidth += Math.log(fit.costInterval.high / fit.costInterval.low) / REPLICATIONS;
    dispersion += fit.dispersion / REPLICATIONS;
    if (fit.intervalBasis === 'dispersion') dispersionBasis++;
  }
  return { covered, logWidth, dispersion, dispersionBasis };
}

describe('score against the points ratio, a level per opponent and one slope', () => {
  it('finds the exact curves from exact scores, and the cost at which the average opponent is even at equal points', () => {
    // So many trials that the prior half games weigh nothing.
    const trials = 1e10;
    const observations = OPPONENT_POINTS.flatMap((points, o) =>
      COUNTS.map((count) => {
        const score = trueScore(sharedSlope, o, count);
        return { opponent: `o${o}`, count, opponentPoints: points, score, variance: score * (1 - score) - drawChance(score) / 4, trials };
      }),
    );
    const fit = fitRatio(observations);
    expect(fit.beta).toBeCloseTo(BETA, 6);
    fit.intercepts.forEach((intercept, o) => {
      expect(intercept).toMatchObject({ opponent: `o${o}`, opponentPoints: OPPONENT_POINTS[o] });
      expect(intercept.alpha).toBeCloseTo((SHIFTS[o] as number) + BETA * Math.log(COST), 4);
    });
    expect(fit.cost).toBeCloseTo(trueCost(sharedSlope), 4);
    expect(fit.dispersion).toBeLessThan(1e-6);
    expect(fit.degreesOfFreedom).toBeCloseTo(observations.length - OPPONENT_POINTS.length - 1, 6);
    // Averaged over the opponents, all fielding the same points, the fit scores ½ at the cost; each alone scores as fitted.
    expect(ratioScore(fit, 4, 4 * fit.cost)).toBeCloseTo(0.5, 10);
    fit.fitted.forEach((score, i) => {
      const observation = observations[i] as RatioObservation;
      expect(score).toBeCloseTo(observation.score, 6);
      expect(ratioScore(fit, observation.count, observation.opponentPoints, observation.opponent)).toBe(score);
    });
  });

  it('covers the true cost about 95% of the time with lopsided opponents, whose samples are all wins or all losses', () => {
    const { covered, dispersion } = replicate(() => sharedSlope);
    expectCoverage(covered, REPLICATIONS, 'noise only, two lopsided opponents');
    // Only simulation noise: the dispersion is about 1, lopsided opponents included — their scores
    // count for (almost) no degrees of freedom: about 12 are left of 24 scores less 7 parameters.
    // Each replication's dispersion has sd about √(2/df) ≈ 0.4, so their mean about 0.02.
    expect(Math.abs(dispersion - 1)).toBeLessThan(CHECK_Z * Math.sqrt(2 / 12 / REPLICATIONS));
  });

  it('keeps a lopsided opponent finite, at the score it was seen to have', () => {
    const observations = sample(seedGenerator(SEED), sharedSlope);
    const fit = fitRatio(observations);
    expect(fit.intercepts.every(({ alpha }) => Number.isFinite(alpha) && Math.abs(alpha) < 50)).toBe(true);
    for (const o of [0, 5]) {
      const seen = observations.filter((observation) => observation.opponent === `opponent-${o}`);
      // Its samples are all losses or all wins, or nearly.
      expect(seen.every((observation) => Math.abs(observation.score - (o === 0 ? 0 : 1)) < 0.01)).toBe(true);
      const points = seen.reduce((sum, observation) => sum + observation.score * observation.trials, 0);
      const seenInterval = wilsonInterval(points, seen.length * TRIALS);
      const intercept = fit.intercepts[o] as OpponentIntercept;
      const atEqualPoints = logistic(intercept.alpha - fit.beta * Math.log(fit.cost));
      expect(atEqualPoints, `opponent ${o}`).toBeGreaterThanOrEqual(seenInterval.low);
      expect(atEqualPoints, `opponent ${o}`).toBeLessThanOrEqual(seenInterval.high);
    }
    // It lost every game it played: the fit credits it with the prior's half game, no more and
    // no less (without it the fitted wins would go to 0 and its level to −∞).
    const lost = observations.flatMap((observation, i) => (observation.opponent === 'opponent-0' ? [i] : []));
    expect(lost.every((i) => observations[i]?.score === 0)).toBe(true);
    expect(lost.reduce((sum, i) => sum + TRIALS * (fit.fitted[i] as number), 0)).toBeCloseTo(0.5, 3);
  });

  it('works against a single opponent, covering about 95%', () => {
    const { covered } = replicate(() => oneOpponent);
    expectCoverage(covered, REPLICATIONS, 'one opponent');
    const fit = fitRatio(sample(seedGenerator(SEED), oneOpponent).slice(0, 3));
    expect(fit.degreesOfFreedom).toBeCloseTo(1, 1);
    expect(fit.intercepts).toHaveLength(1);
  });

  it('widens the interval when the curves misfit (each opponent its own slope), and still covers about 95%', () => {
    const noise = replicate(() => sharedSlope);
    const misfit = replicate((rng) => ({ ...sharedSlope, slopes: SHIFTS.map(() => BETA * Math.exp(SLOPE_SD * normal(rng))) }));
    expect(misfit.dispersion).toBeGreaterThan(2);
    expect(misfit.dispersionBasis).toBeGreaterThan(REPLICATIONS / 2);
    expect(misfit.logWidth).toBeGreaterThan(noise.logWidth);
    expectCoverage(misfit.covered, REPLICATIONS, 'curves misfit');
  });

  it('fits a real roster (Sylvan Knight against the heroic core roster): the cost where the measured scores cross ½, within its interval', () => {
    const observations: RatioObservation[] = SYLVAN_KNIGHT_AGAINST_CORE.flatMap(([opponent, opponentPoints, trials, rows]) => rows.map(([count, score, variance]) => ({ opponent, count, opponentPoints, score, variance, trials })));
    const fit = fitRatio(observations);
    // Oracle without a model: each opponent's measured scores interpolated linearly in the count at
    // k = Pₒ/c (0 or 1 beyond the counts measured, as they were there), averaged, and the c where that crosses ½.
    const measured = (cost: number) => {
      const opponents = [...new Set(observations.map((observation) => observation.opponent))];
      return opponents.reduce((sum, opponent) => {
        const mine = observations.filter((observation) => observation.opponent === opponent).sort((a, b) => a.count - b.count);
        const k = (mine[0] as RatioObservation).opponentPoints / cost;
        const above = mine.findIndex((observation) => observation.count >= k);
        if (above <= 0) return sum + (above === 0 ? (mine[0] as RatioObservation).score : (mine.at(-1) as RatioObservation).score);
        const [low, high] = [mine[above - 1] as RatioObservation, mine[above] as RatioObservation];
        return sum + low.score + ((k - low.count) / (high.count - low.count)) * (high.score - low.score);
      }, 0) / opponents.length;
    };
    let [low, high] = [1, 60];
    for (let step = 0; step < 100; step++) [low, high] = measured((low + high) / 2) > 0.5 ? [(low + high) / 2, high] : [low, (low + high) / 2];
    expect(fit.costInterval.low).toBeLessThanOrEqual(low);
    expect(high).toBeLessThanOrEqual(fit.costInterval.high);
    // One curve for every opponent misfitted by a dispersion in the thousands; with their own levels, what is left is modest.
    expect(fit.dispersion).toBeLessThan(20);
    expect(fit.intercepts).toHaveLength(9);
  });

  it('refuses what cannot give a cost, saying why', () => {
    const at = (count: number, score: number, opponent = 'x'): RatioObservation => ({ opponent, count, opponentPoints: 100, score, variance: 0.2, trials: 1000 });
    expect(() => fitRatio([at(2, 0.3), at(4, 0.6)])).toThrow(/more observations than parameters/);
    expect(() => fitRatio([at(2, 0.3), at(4, 0.6), at(2, 0.4, 'y')])).toThrow(/more observations than parameters \(one level per opponent and the slope, 3\)/);
    expect(() => fitRatio([at(3, 0.3), at(3, 0.5), at(3, 0.6)])).toThrow(/some opponent measured at 2 different points ratios/);
    expect(() => fitRatio([at(2, 0.6), at(3, 0.5), at(4, 0.4)])).toThrow(/does not rise with count/);
    expect(() => fitRatio([at(2, 0.49), at(3, 0.5), at(4, 0.5), at(5, 0.51)])).toThrow(/does not rise significantly with count/);
    expect(() => fitRatio([at(2, 1.2), at(3, 0.5), at(4, 0.6)])).toThrow(/observations\[0\]\.score must be in \[0, 1\]/);
    expect(() => fitRatio([at(0, 0.2), at(3, 0.5), at(4, 0.6)])).toThrow(/observations\[0\]\.count must be a number of models > 0/);
    expect(() => fitRatio([{ ...at(2, 0.2), trials: 0 }, at(3, 0.5), at(4, 0.6)])).toThrow(/trials must be at least 1/);
    expect(() => fitRatio([at(2, 0.2), at(3, 0.5), { ...at(4, 0.6), opponentPoints: 90 }])).toThrow(/observations\[2\]\.opponentPoints is 90, but x fielded 100 points elsewhere/);
    const fit = fitRatio([at(2, 0.31), at(3, 0.5), at(4, 0.64)]);
    expect(() => ratioScore(fit, 0, 100)).toThrow(RangeError);
    expect(() => ratioScore(fit, 3, 100, 'nobody')).toThrow(/no opponent "nobody"/);
  });
});

/**
 * `crucible balance sylvan-knight --against data/heroic/rosters/core.yaml --budget 60 -p 0.03 --json`
 * (seed 1, both seatings), results[0].observations rounded to 4 decimals: per opponent, the points it
 * fielded, the trials per count, and [count, expected score, per-trial variance of the score].
 * The coarse counts of the bisection (120 trials) and the fine ones around ½ (1,068).
 */
const SYLVAN_KNIGHT_AGAINST_CORE: readonly (readonly [string, number, number, readonly (readonly [number, number, number])[]])[] = [
  ['goblin', 60, 120, [[1, 0, 0], [8, 0.8083, 0.1202], [15, 1, 0], [30, 1, 0], [60, 1, 0]]],
  ['ogre', 80, 120, [[1, 0, 0], [8, 1, 0], [15, 1, 0], [30, 1, 0], [60, 1, 0]]],
  ['ogre-regenerating', 50, 120, [[1, 0.0417, 0.04], [8, 1, 0], [15, 1, 0], [30, 1, 0], [60, 1, 0]]],
  ['kobold', 60, 120, [[1, 0, 0], [8, 0.3833, 0.1037], [15, 0.975, 0.0242], [30, 1, 0], [60, 1, 0]]],
  ['skeleton', 60, 120, [[1, 0, 0], [8, 0.9667, 0.0316], [15, 1, 0], [30, 1, 0], [60, 1, 0]]],
  ['draugr', 56, 120, [[1, 0, 0], [8, 1, 0], [15, 1, 0], [30, 1, 0], [60, 1, 0]]],
  ['orc-barbarian', 60, 120, [[1, 0, 0], [8, 0.9917, 0.0083], [15, 1, 0], [30, 1, 0], [60, 1, 0]]],
  ['blackrazor-soldier', 54, 120, [[1, 0, 0], [8, 1, 0], [15, 1, 0], [30, 1, 0], [60, 1, 0]]],
  ['slathaai-psionic', 60, 120, [[1, 0.0083, 0.0083], [8, 1, 0], [15, 1, 0], [30, 1, 0], [60, 1, 0]]],
  ['goblin', 60, 1068, [[3, 0.0019, 0.0019], [4, 0.0796, 0.0673], [5, 0.3436, 0.1286], [6, 0.5403, 0.0887]]],
  ['ogre', 80, 1068, [[3, 0.3745, 0.1525], [4, 0.6676, 0.1427], [5, 0.9045, 0.0788], [6, 0.9878, 0.0119]]],
  ['ogre-regenerating', 50, 1068, [[3, 0.8305, 0.1286], [4, 0.9813, 0.0181], [5, 1, 0], [6, 1, 0]]],
  ['kobold', 60, 1068, [[3, 0, 0], [4, 0, 0], [5, 0, 0], [6, 0.0234, 0.0224]]],
  ['skeleton', 60, 1068, [[3, 0.0384, 0.0356], [4, 0.3137, 0.1372], [5, 0.5721, 0.1191], [6, 0.7294, 0.1254]]],
  ['draugr', 56, 1068, [[3, 0.3352, 0.1564], [4, 0.6376, 0.1519], [5, 0.8287, 0.116], [6, 0.956, 0.0402]]],
  ['orc-barbarian', 60, 1068, [[3, 0.1189, 0.0908], [4, 0.3961, 0.1387], [5, 0.6077, 0.1282], [6, 0.8127, 0.118]]],
  ['blackrazor-soldier', 54, 1068, [[3, 0.3539, 0.185], [4, 0.6437, 0.1845], [5, 0.8399, 0.1219], [6, 0.9616, 0.036]]],
  ['slathaai-psionic', 60, 1068, [[3, 0.6376, 0.167], [4, 0.883, 0.0919], [5, 0.971, 0.0274], [6, 0.9972, 0.0028]]],
];
